import FFmpeg
import Foundation
import JobEngine
import TaskContract
import Vips

/// `mediajob thumbnail`: small previews of photos and videos, an index, and a contact sheet.
///
/// Photos go through libvips' shrink-on-load thumbnailing in this process; a video gives a
/// representative frame (the most detailed of several between 10 % and 70 % of its length, so
/// never a black or first frame). A chunk is a batch of items bounded in count and bytes.
public struct ThumbnailJob: JobKind {
    /// The thumbnail run's settings.
    public struct Spec: Codable, Sendable, Equatable {
        public var items: [InputItem]
        /// The folder that will hold the thumbnails, `index.json` and `contact-sheet.jpg`.
        public var output: String
        /// The longest side of a thumbnail, in pixels.
        public var size: Int
        public var format: String
        public var quality: Int
        public var overwrite: Bool
        public var skipBad: Bool
        /// Batches made at once.
        public var parallelism: Int
        public var imageLimits: ImageLimits
        public var mediaLimits: MediaLimits
        /// Where photos may be resized: only `on` takes them to the GPU (see ``thumbnail(of:spec:)``).
        public var gpu: GPUPreference

        public init(items: [InputItem], output: String, size: Int, format: String, quality: Int, overwrite: Bool,
                    skipBad: Bool, parallelism: Int = 1, imageLimits: ImageLimits = ImageLimits(),
                    mediaLimits: MediaLimits = MediaLimits(), gpu: GPUPreference = .auto) {
            self.items = items
            self.output = output
            self.size = size
            self.format = format
            self.quality = quality
            self.overwrite = overwrite
            self.skipBad = skipBad
            self.parallelism = parallelism
            self.imageLimits = imageLimits
            self.mediaLimits = mediaLimits
            self.gpu = gpu
        }
    }

    /// Most items in one chunk, and most bytes of input.
    static let batchItems = 8
    static let batchBytes: Int64 = 64 << 20

    public init() {}

    public var name: String { "thumbnail" }

    public var defaultCosts: [Stage: Double] { [.render: 0.2, .package: 0.3] }

    public func plan(_ spec: Spec) throws -> JobPlan {
        guard !spec.items.isEmpty else { throw InputError(message: "no photos or videos were found in the inputs") }
        _ = try MediaSettings.imageFormat(spec.format)
        var batches: [[Int]] = [[]]
        var bytes: Int64 = 0
        for (index, item) in spec.items.enumerated() {
            if batches[batches.count - 1].count == Self.batchItems || (bytes + item.size > Self.batchBytes && !batches[batches.count - 1].isEmpty) {
                batches.append([])
                bytes = 0
            }
            batches[batches.count - 1].append(index)
            bytes += item.size
        }
        let chunks = try batches.enumerated().map { number, members in
            PlannedChunk(key: "batch-\(number)", stage: .render, detail: try JSONEncoder().encode(members))
        }
        return JobPlan(title: "Thumbnails of \(spec.items.count) files", destination: URL(fileURLWithPath: spec.output),
                       chunks: chunks, parallelism: spec.parallelism, overwrite: spec.overwrite)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try MediaLibraries.initialize(temporaryDirectory: context.workspace.directory.path)
        let members = try JSONDecoder().decode([Int].self, from: chunk.detail ?? Data())
        let format = try MediaSettings.imageFormat(spec.format)
        var failures: [String] = []
        var paths = Set<String>()
        for index in members {
            try context.checkStop()
            let item = spec.items[index]
            let name = "\(item.name).\(format.fileExtension)"
            guard !context.workspace.contains(name) else { continue } // made before a crash: keep it
            do {
                let (thumbnail, path) = try Self.thumbnail(of: item, spec: spec)
                paths.insert(path)
                try context.workspace.commit(name) { temporary in
                    try thumbnail.save(to: temporary.path, format: format, quality: spec.quality,
                                       shouldStop: { [context] in context.isStopRequested })
                }
            } catch let error as CategorizedError where error.category == .invalidInput && !context.isStopRequested {
                if spec.skipBad {
                    try SkippedItems.record(index, reason: "\(item.path): \(error.message)", in: context.workspace)
                } else {
                    failures.append("\(item.path): \(error.message)")
                }
            } catch where context.isStopRequested {
                throw JobStopped()
            }
        }
        if !failures.isEmpty { throw ItemFailure(item: chunk.key, reason: failures.joined(separator: "; ")) }
        return paths.isEmpty ? RenderPath.cpu : paths.sorted().joined(separator: "+")
    }

    public func finalize(_ spec: Spec, chunks: [PlannedChunk], in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "contact sheet")
        return try ThumbnailPackager(spec: spec, workspace: context.workspace).package()
    }

    /// A photo's thumbnail — libvips' shrink-on-load thumbnail, or with `--gpu on` a full decode
    /// resized on the GPU — or a video's representative frame scaled down; and the path that
    /// made it.
    ///
    /// `auto` keeps photos on the CPU: JPEG and WebP decode straight at 1/2, 1/4 or 1/8 size
    /// there, which costs less than decoding the full picture for the GPU to reduce.
    static func thumbnail(of item: InputItem, spec: Spec) throws -> (VipsImage, String) {
        switch try AssetProbe.classify(item.path, limits: spec.mediaLimits, imageLimits: spec.imageLimits) {
        case .image:
            if spec.gpu == .on, let gpu = spec.gpu.renderer {
                var edits = ProjectManifest.Edits()
                edits.maxWidth = spec.size
                edits.maxHeight = spec.size
                let image = try VipsImage.load(item.path, limits: spec.imageLimits, access: .sequential)
                let (thumbnail, path) = try PhotoRendering.apply(edits, to: image, gpu: gpu)
                if path == RenderPath.gpu { return (thumbnail, path) }
            }
            return (try VipsImage.thumbnail(item.path, size: spec.size, limits: spec.imageLimits), RenderPath.cpu)
        case .video:
            let frame = try FrameGrabber.representativeFrame(item.path, limits: spec.mediaLimits, maxDimension: spec.size)
            return (try VipsImage.fromPixels(frame.data, width: frame.width, height: frame.height, bands: 3), RenderPath.cpu)
        }
    }
}
