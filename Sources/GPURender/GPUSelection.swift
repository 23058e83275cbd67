import FoundationEssentials
import Synchronization
import Vulkan

/// Resource probing for the GPU path: finds the Vulkan devices, decides honestly whether one
/// can render, and opens it.
///
/// A device is selected only when it is a real GPU (discrete, integrated or virtual), has a
/// compute queue, and passes a known-answer self-test of every shader. Software devices
/// (llvmpipe/lavapipe) are slower than the CPU path and are selected only when
/// `MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1` (how tests exercise the GPU code without a GPU).
/// `MEDIAJOB_VULKAN_LOADER` names another loader library (an empty or missing one means none).
public final class GPUSelection: @unchecked Sendable {
    /// What was found.
    public let report: GPUReport
    /// The renderer on the selected device; `nil` when none was selected.
    public let renderer: GPURenderer?

    private init(report: GPUReport, renderer: GPURenderer?) {
        self.report = report
        self.renderer = renderer
    }

    private static let cache = Mutex(())
    nonisolated(unsafe) private static var shared: GPUSelection?
    nonisolated(unsafe) private static var preflight: (@Sendable () -> GPUReport?)?

    /// This process's selection, probed on first use with the process's environment.
    ///
    /// When a preflight is set (``setPreflight(_:)``) it runs first; if it reports that no
    /// device would be selected, that report is the answer and this process never loads a
    /// Vulkan driver. (Mesa's drivers bring LLVM, about 45 MiB, and cannot be unloaded.)
    public static func current() -> GPUSelection {
        cache.withLock { _ in
            if let shared { return shared }
            let selection: GPUSelection
            if let report = preflight?(), report.selected == nil {
                selection = GPUSelection(report: report, renderer: nil)
            } else {
                selection = probe(environment: ProcessInfo.processInfo.environment)
            }
            shared = selection
            return selection
        }
    }

    /// Sets how ``current()`` learns, before loading any driver here, whether probing would
    /// select a device: typically by probing in a child process. `nil` from it means unknown.
    public static func setPreflight(_ probe: @escaping @Sendable () -> GPUReport?) {
        cache.withLock { _ in preflight = probe }
    }

    /// Probes now with `environment`'s settings (the Vulkan loader itself reads the process's).
    public static func probe(environment: [String: String]) -> GPUSelection {
        let allowSoftware = environment["MEDIAJOB_VULKAN_ALLOW_SOFTWARE"] == "1"
        var report = GPUReport(allowSoftware: allowSoftware)
        let loader: VulkanLoader
        let instance: Instance
        do {
            loader = try VulkanLoader(path: environment["MEDIAJOB_VULKAN_LOADER"] ?? "libvulkan.so.1")
            report.loader = loader.path
            report.instanceVersion = loader.instanceVersion().description
            instance = try Instance(loader: loader)
        } catch {
            report.reason = (error as? VulkanError).map { $0.kind == .noLoader ? "no Vulkan loader: \($0.reason)"
                : "no Vulkan driver: \($0.reason)" } ?? "\(error)"
            return GPUSelection(report: report, renderer: nil)
        }
        let physicalDevices: [PhysicalDevice]
        do {
            physicalDevices = try instance.physicalDevices()
        } catch {
            report.reason = "the Vulkan devices cannot be listed: \(error)"
            return GPUSelection(report: report, renderer: nil)
        }
        report.devices = physicalDevices.map { GPUReport.Device(info: $0.info, selected: false, reason: "") }
        let order = physicalDevices.indices.sorted { rank(physicalDevices[$0].info.type) < rank(physicalDevices[$1].info.type) }
        var renderer: GPURenderer?
        for index in order {
            let info = physicalDevices[index].info
            if info.computeQueueFamilies.isEmpty {
                report.devices[index].reason = "it has no compute queue"
            } else if !info.type.isHardware && !allowSoftware {
                report.devices[index].reason = "it is a software device that runs on the CPU, slower than the CPU path; "
                    + "set MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1 to use it anyway"
            } else if renderer != nil {
                report.devices[index].reason = "another device was selected"
            } else {
                do {
                    let candidate = try GPURenderer(physicalDevices[index])
                    try SelfTest.run(candidate)
                    renderer = candidate
                    report.selected = index
                    report.memoryBudgetBytes = candidate.memoryBudget
                    report.devices[index].selected = true
                    report.devices[index].reason = "it has a compute queue and passed the self-test"
                        + (info.type.isHardware ? "" : " (software device allowed by MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1)")
                } catch {
                    report.devices[index].reason = "the self-test failed: \(error)"
                }
            }
        }
        report.reason = summary(report)
        return GPUSelection(report: report, renderer: renderer)
    }

    /// Discrete GPUs first, software last.
    private static func rank(_ type: DeviceInfo.DeviceType) -> Int {
        [.discrete, .integrated, .virtual, .other, .cpu].firstIndex(of: type)!
    }

    private static func summary(_ report: GPUReport) -> String {
        if let selected = report.selected { return "rendering on \(report.devices[selected].info.name)" }
        if report.devices.isEmpty { return "the Vulkan loader found no device" }
        if report.devices.allSatisfy({ !$0.info.type.isHardware }) && !report.allowSoftware {
            return "only software Vulkan devices (\(report.devices.map(\.info.name).joined(separator: ", "))), "
                + "which are slower than the CPU path; set MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1 to use them anyway"
        }
        return "no device can render: " + report.devices.map { "\($0.info.name): \($0.reason)" }.joined(separator: "; ")
    }
}

/// What GPU probing found, as `mediajob probe` reports it.
public struct GPUReport: Sendable, Codable, Equatable {
    /// One Vulkan device.
    public struct Device: Sendable, Codable, Equatable {
        /// What the device is.
        public var info: DeviceInfo
        /// Whether jobs render on it.
        public var selected: Bool
        /// Why it is or is not selected.
        public var reason: String
    }

    /// The loader library opened; `nil` when none could be.
    public var loader: String?
    /// The loader's Vulkan version.
    public var instanceVersion: String?
    /// Every device the drivers offer.
    public var devices: [Device] = []
    /// The index in ``devices`` of the device jobs render on.
    public var selected: Int?
    /// Why the GPU is or is not used, in one sentence.
    public var reason = ""
    /// Whether software devices were allowed (`MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1`).
    public var allowSoftware: Bool
    /// The renderer's device-memory budget, when a device is selected.
    public var memoryBudgetBytes: Int?

    /// An empty report, before probing.
    public init(allowSoftware: Bool) {
        self.allowSoftware = allowSoftware
    }
}
