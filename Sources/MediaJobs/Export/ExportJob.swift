import FFmpeg
import Foundation
import JobEngine
import PhotoJobs
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
        /// Where ``manifest`` was read, to read it again (`nil` in jobs submitted before it was kept).
        public var source: ManifestSource?

        public init(project: String, manifest: ProjectManifest, settings: BatchSettings, source: ManifestSource? = nil) {
            self.project = project
            self.manifest = manifest
            self.settings = settings
            self.source = source
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

    public var showsCountsInSubtitle: Bool { true }

    /// Seconds per unit of work on the reference machine: a megapixel of photo, a ``VideoWork``
    /// unit (one thread does 110 million a second), a second of audio, a unit of packaging
    /// (``MediaChunk/packageWork(of:)``: a photo's megapixel, a million units of a clip's work).
    /// Packaging copies encoded bytes and remuxes clips, so it is cheap per unit: 0.0017 s on the
    /// sample project, 0.00024 s on a project of 50 photos and two 10 s 1080p clips; 0.0006 lies
    /// between them (the 0.005 used before made that project's first ETA 1.7-2x too long).
    public var defaultCosts: [Stage: Double] {
        [.render: 0.025, .encode: 1 / VideoWork.referenceRate, .audio: 0.003, .package: 0.0006]
    }

    /// The same export: the project's assets (with their size and modification time), the
    /// manifest's edits and settings, `--skip-bad`, and the package's path. Limits, the GPU
    /// preference and `--overwrite` change how the work is done, not what it is.
    public func workIdentity(of spec: Spec) throws -> any Encodable {
        let inputs = try spec.manifest.assets.indices.map { try ExportAssets.path(of: $0, in: spec) }
        return WorkIdentity(inputs: inputs, settings: Settings(manifest: spec.manifest, skipBad: spec.settings.skipBad),
                            destination: spec.settings.output)
    }

    private struct Settings: Encodable {
        var manifest: ProjectManifest
        var skipBad: Bool
    }

    public func plan(_ spec: Spec) throws -> JobPlan {
        try MediaLibraries.initialize()
        _ = try MediaSettings.imageFormat(spec.manifest.export.image.format)
        let settings = spec.manifest.export.video
        let encoding = try MediaSettings.videoEncoding(settings)
        let chunks = try UnusableInputs.collect(spec.manifest.assets.indices) { index in
            let asset = spec.manifest.assets[index]
            let video = VideoWork(edit: MediaSettings.videoEdit(asset.edits, maxHeight: settings.maxHeight), encoding: encoding,
                                  chunkSeconds: settings.chunkSeconds)
            return try MediaChunk.plan(item: index, described: ExportAssets.describe(index, in: spec),
                                       path: try ExportAssets.path(of: index, in: spec), output: asset.output,
                                       start: asset.edits.trim?.start ?? 0, end: asset.edits.trim?.end, video: video,
                                       limits: spec.settings.mediaLimits, imageLimits: spec.settings.imageLimits,
                                       skipBad: spec.settings.skipBad)
        }.flatMap { $0 }
        return spec.settings.plan(chunks, finalizeWork: MediaChunk.packageWork(of: chunks))
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try MediaLibraries.initialize()
        let work = try MediaChunk(chunk)
        var path = RenderPath.cpu
        try context.guarding(ExportAssets.describe(work.item, in: spec), skipBad: spec.settings.skipBad) {
            path = try ExportRenderer(spec: spec, gpu: { environment.renderer(for: spec.settings.gpu, $0) },
                                      budget: environment.encoderBudget, context: context)
                .render(work)
        }
        return path.rawValue
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "package")
        return try ExportPackager(spec: spec, context: context).package(try chunks.all().map(MediaChunk.init))
    }
}
