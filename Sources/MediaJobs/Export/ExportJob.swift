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
        /// The package's path (``BatchSettings/output``) and how bad assets, limits and the GPU are treated.
        public var settings: BatchSettings

        public init(project: String, manifest: ProjectManifest, settings: BatchSettings) {
            self.project = project
            self.manifest = manifest
            self.settings = settings
        }

        /// The job's title: states the result.
        public var title: String { String("Exporting \(manifest.name)".prefix(80)) }
    }

    private let environment: MediaEnvironment

    /// An export kind that renders with what `environment` offers.
    public init(environment: MediaEnvironment = MediaEnvironment()) {
        self.environment = environment
    }

    public var name: String { "export" }

    public var defaultCosts: [Stage: Double] { [.render: 0.3, .encode: 3, .package: 0.5] }

    public func plan(_ spec: Spec) throws -> JobPlan {
        try MediaLibraries.initialize()
        _ = try MediaSettings.imageFormat(spec.manifest.export.image.format)
        _ = try MediaSettings.videoEncoding(spec.manifest.export.video)
        let planner = SegmentPlanner(parallelism: spec.settings.parallelism)
        var chunks: [PlannedChunk] = []
        for (index, asset) in spec.manifest.assets.enumerated() {
            let path = try ExportAssets.path(of: index, in: spec)
            let planned = MediaChunk.plan(item: index, path: path, start: asset.edits.trim?.start ?? 0,
                                          end: asset.edits.trim?.end, planner: planner, limits: spec.settings.mediaLimits,
                                          imageLimits: spec.settings.imageLimits)
            chunks += try planned.map { try $0.planned(output: asset.output) }
        }
        return spec.settings.plan(chunks)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try MediaLibraries.initialize()
        let work = try MediaChunk(chunk)
        var path = RenderPath.cpu
        try SkippedItems.guarding(ExportAssets.describe(work.item, in: spec), index: work.item,
                                  skipBad: spec.settings.skipBad, context: context) {
            path = try ExportRenderer(spec: spec, gpu: environment.renderer(for: spec.settings.gpu), context: context)
                .render(work)
        }
        return path.rawValue
    }

    public func finalize(_ spec: Spec, chunks: [PlannedChunk], in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "package")
        return try ExportPackager(spec: spec, context: context).package(chunks.map(MediaChunk.init))
    }
}
