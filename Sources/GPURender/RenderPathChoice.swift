import FoundationEssentials
import Vulkan

/// What a chunk renders, as `--gpu auto` chooses a path for it: photos, or video frames.
public enum RenderOperation: String, Sendable, CaseIterable {
    case photos
    case video
}

/// One render path's throughput, as `probe --benchmark` measures it (``RenderBenchmarkRecord``).
public struct RenderFigures: Sendable, Codable, Equatable {
    /// Source megapixels rendered per second, photos.
    public var photoMegapixelsPerSecond: Double
    /// Video frames rendered per second.
    public var framesPerSecond: Double
    /// Source megapixels rendered per second, video.
    public var frameMegapixelsPerSecond: Double

    enum CodingKeys: String, CodingKey {
        case photoMegapixelsPerSecond = "photo_megapixels_per_second", framesPerSecond = "frames_per_second"
        case frameMegapixelsPerSecond = "frame_megapixels_per_second"
    }

    public init(photoMegapixelsPerSecond: Double, framesPerSecond: Double, frameMegapixelsPerSecond: Double) {
        self.photoMegapixelsPerSecond = photoMegapixelsPerSecond
        self.framesPerSecond = framesPerSecond
        self.frameMegapixelsPerSecond = frameMegapixelsPerSecond
    }
}

/// `probe --benchmark`'s figures for one device and driver, kept in the state folder
/// (``fileName``), from which `--gpu auto` renders each operation on the faster path.
///
/// The figures hold while the device and its driver are those measured (``matches(_:)``): a
/// different device or driver version is measured again.
public struct RenderBenchmarkRecord: Codable, Sendable, Equatable {
    /// The file in the state folder.
    public static let fileName = "render-benchmark.json"

    /// The device measured: its name, PCI vendor and device, driver version and details.
    public var device: String
    public var vendorID: UInt32, deviceID: UInt32
    public var driverVersion: String
    public var driverInfo: String?
    /// The figures on each path, uploads and downloads counted on the GPU.
    public var cpu: RenderFigures
    public var gpu: RenderFigures
    /// When it was measured.
    public var measuredAt: Date

    enum CodingKeys: String, CodingKey {
        case device, vendorID = "vendor_id", deviceID = "device_id", driverVersion = "driver_version"
        case driverInfo = "driver_info", cpu, gpu, measuredAt = "measured_at"
    }

    /// A record of `figures` measured now on `device`.
    public init(device: DeviceInfo, cpu: RenderFigures, gpu: RenderFigures, measuredAt: Date = Date()) {
        self.device = device.name
        vendorID = device.vendorID
        deviceID = device.deviceID
        driverVersion = device.driverVersion
        driverInfo = device.driverInfo
        self.cpu = cpu
        self.gpu = gpu
        self.measuredAt = measuredAt
    }

    /// Whether the figures are of `device` with its present driver.
    public func matches(_ device: DeviceInfo) -> Bool {
        self.device == device.name && vendorID == device.vendorID && deviceID == device.deviceID
            && driverVersion == device.driverVersion && driverInfo == device.driverInfo
    }

    /// Whether the GPU measured faster than the CPU for `operation`.
    public func gpuIsFaster(for operation: RenderOperation) -> Bool {
        switch operation {
        case .photos: gpu.photoMegapixelsPerSecond > cpu.photoMegapixelsPerSecond
        case .video: gpu.framesPerSecond > cpu.framesPerSecond
        }
    }

    /// Where `operation` renders under `--gpu auto` and why, with the figures: for example
    /// "photos on the CPU: 41.0 MP/s against 1.9 MP/s on llvmpipe".
    public func explanation(for operation: RenderOperation) -> String {
        let (unit, cpuFigure, gpuFigure) = switch operation {
        case .photos: ("MP/s", cpu.photoMegapixelsPerSecond, gpu.photoMegapixelsPerSecond)
        case .video: ("frames/s", cpu.framesPerSecond, gpu.framesPerSecond)
        }
        // One decimal, as `%.1f` writes it (FoundationEssentials has no String(format:)).
        let figures = { (value: Double) in "\((value * 10).rounded() / 10) \(unit)" }
        return gpuIsFaster(for: operation)
            ? "\(operation.rawValue) on the GPU: \(figures(gpuFigure)) on \(device) against \(figures(cpuFigure)) on the CPU"
            : "\(operation.rawValue) on the CPU: \(figures(cpuFigure)) against \(figures(gpuFigure)) on \(device)"
    }

    /// The record in `folder`, or `nil` when there is none or it cannot be read.
    public static func load(from folder: URL) -> RenderBenchmarkRecord? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        return try? decoder.decode(Self.self, from: data)
    }

    /// Writes the record into `folder` (made if missing), replacing any there at once.
    public func save(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
