import FFmpeg
import Foundation
import JobEngine
import TaskContract
import Vips

/// `mediajob export`: renders a project's assets with their edits, encodes them, and packages
/// them as a zip archive (with a manifest of sizes and SHA-256 digests) or a folder.
///
/// Chunks, fixed when the job is planned: one per image (render stage); per video, one per
/// keyframe-aligned segment (encode stage) and one for its audio. The package stage joins each
/// video's segments without re-encoding, builds and validates the package, and the engine renames
/// it onto the destination.
public struct ExportJob: JobKind {
    /// The export's settings, with the manifest as it was when the job was submitted, so that a
    /// resumed job makes exactly what the first run would have.
    public struct Spec: Codable, Sendable, Equatable {
        /// The project folder.
        public var project: String
        public var manifest: ProjectManifest
        /// The package's path.
        public var output: String
        public var overwrite: Bool
        /// Skip bad assets (and report them) instead of failing the job.
        public var skipBad: Bool
        /// Chunks run at once; x264 runs one-threaded in each.
        public var parallelism: Int
        public var imageLimits: ImageLimits
        public var mediaLimits: MediaLimits
        /// Where pictures may render.
        public var gpu: GPUPreference

        public init(project: String, manifest: ProjectManifest, output: String, overwrite: Bool, skipBad: Bool,
                    parallelism: Int, imageLimits: ImageLimits = ImageLimits(), mediaLimits: MediaLimits = MediaLimits(),
                    gpu: GPUPreference = .auto) {
            self.project = project
            self.manifest = manifest
            self.output = output
            self.overwrite = overwrite
            self.skipBad = skipBad
            self.parallelism = parallelism
            self.imageLimits = imageLimits
            self.mediaLimits = mediaLimits
            self.gpu = gpu
        }
    }

    public init() {}

    public var name: String { "export" }

    public var defaultCosts: [Stage: Double] { [.render: 0.3, .encode: 3, .package: 0.5] }

    public func plan(_ spec: Spec) throws -> JobPlan {
        try MediaLibraries.initialize()
        _ = try MediaSettings.imageFormat(spec.manifest.export.image.format)
        _ = try MediaSettings.videoEncoding(spec.manifest.export.video)
        let planner = SegmentPlanner(parallelism: spec.parallelism)
        var chunks: [PlannedChunk] = []
        for (index, asset) in spec.manifest.assets.enumerated() {
            let path = try ExportAssets.path(of: index, in: spec)
            let planned = MediaChunk.plan(item: index, path: path, start: asset.edits.trim?.start ?? 0,
                                          end: asset.edits.trim?.end, planner: planner, limits: spec.mediaLimits,
                                          imageLimits: spec.imageLimits)
            chunks += try planned.map { try $0.planned(output: asset.output) }
        }
        let title = "Exporting \(spec.manifest.name)"
        return JobPlan(title: String(title.prefix(80)), destination: URL(fileURLWithPath: spec.output), chunks: chunks,
                       parallelism: spec.parallelism, overwrite: spec.overwrite)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try MediaLibraries.initialize(temporaryDirectory: context.workspace.directory.path)
        let work = try MediaChunk(chunk)
        var path = RenderPath.cpu
        try SkippedItems.guarding(ExportAssets.describe(work.item, in: spec), index: work.item, skipBad: spec.skipBad,
                                  context: context) {
            path = try ExportRenderer(spec: spec, context: context).render(work)
        }
        return path
    }

    public func finalize(_ spec: Spec, chunks: [PlannedChunk], in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "package")
        return try ExportPackager(spec: spec, context: context).package(chunks.map(MediaChunk.init))
    }
}
