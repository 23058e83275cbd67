import FFmpeg
import Foundation
import JobEngine
import PhotoJobs
import TaskContract
import Vips

/// `mediajob compress`: smaller copies of photos and videos for sharing.
///
/// Photos are re-encoded (to a target size by searching the quality, when one is asked for);
/// videos are re-encoded in keyframe-aligned segments as in an export and joined. When an output
/// would be larger than its input, the input is copied instead and the report says so.
public struct CompressJob: JobKind {
    /// The compression run's settings.
    public struct Spec: Codable, Sendable, Equatable {
        public var items: [InputItem]
        public var maxWidth: Int?
        public var maxHeight: Int?
        /// Photo quality (1…100) when no target size is asked for.
        public var quality: Int
        /// The largest size a photo may have, in bytes; the quality is searched to meet it.
        public var targetSize: Int64?
        public var videoCRF: Int
        public var preset: String
        /// The most work one video segment may be, in seconds on the reference machine (``VideoWork``).
        public var chunkSeconds: Double
        /// The folder that will hold the outputs and `report.json` (``BatchSettings/output``), and
        /// how bad items, limits and the GPU are treated.
        public var settings: BatchSettings
        /// Photos converted to sRGB, or kept in their colour space with their profile.
        public var profile: ColourProfilePolicy
        /// What photos keep of their metadata, re-encoded or copied.
        public var metadata: MetadataPolicy
        /// The format every photo is re-encoded to (never copied then); `nil`: each keeps its own
        /// where it is jpeg, webp or png.
        public var format: ImageFormat?

        public init(items: [InputItem], maxWidth: Int?, maxHeight: Int?, quality: Int, targetSize: Int64?,
                    videoCRF: Int, preset: String, chunkSeconds: Double = VideoWork.defaultChunkSeconds,
                    settings: BatchSettings, profile: ColourProfilePolicy = .srgb, metadata: MetadataPolicy = .safe,
                    format: ImageFormat? = nil) {
            self.items = items
            self.maxWidth = maxWidth
            self.maxHeight = maxHeight
            self.quality = quality
            self.targetSize = targetSize
            self.videoCRF = videoCRF
            self.preset = preset
            self.chunkSeconds = chunkSeconds
            self.settings = settings
            self.profile = profile
            self.metadata = metadata
            self.format = format
        }

        /// The job's title: states the result.
        public var title: String { "Compressing \(Plural.of(items.count, "file"))" }

        var encoding: VideoEncoding { VideoEncoding(codec: "libx264", crf: videoCRF, preset: preset, threads: 1) }

        var edit: VideoEdit {
            var edit = VideoEdit()
            edit.maxWidth = maxWidth
            edit.maxHeight = maxHeight
            return edit
        }
    }

    private let environment: MediaEnvironment

    /// A compress kind that renders with what `environment` offers.
    public init(environment: MediaEnvironment = MediaEnvironment()) {
        self.environment = environment
    }

    public var name: String { "compress" }

    public var showsCountsInSubtitle: Bool { true }

    /// Seconds per unit of work on the reference machine, in the units of ``ExportJob/defaultCosts``.
    public var defaultCosts: [Stage: Double] {
        [.render: 0.03, .encode: 1 / VideoWork.referenceRate, .audio: 0.003, .package: 0.005]
    }

    /// The same compression: the inputs (with their size and modification time), the settings
    /// that shape the outputs, `--skip-bad`, and the output folder.
    public func workIdentity(of spec: Spec) throws -> any Encodable {
        WorkIdentity(inputs: spec.items.map(\.path), settings: Settings(spec), destination: spec.settings.output)
    }

    private struct Settings: Encodable {
        var maxWidth: Int?, maxHeight: Int?, quality: Int, targetSize: Int64?, videoCRF: Int, preset: String
        var chunkSeconds: Double, profile: ColourProfilePolicy, metadata: MetadataPolicy, skipBad: Bool
        var format: ImageFormat?

        init(_ spec: Spec) {
            (maxWidth, maxHeight, quality, targetSize) = (spec.maxWidth, spec.maxHeight, spec.quality, spec.targetSize)
            (videoCRF, preset, chunkSeconds) = (spec.videoCRF, spec.preset, spec.chunkSeconds)
            (profile, metadata, skipBad, format) = (spec.profile, spec.metadata, spec.settings.skipBad, spec.format)
        }
    }

    public func plan(_ spec: Spec) throws -> JobPlan {
        guard !spec.items.isEmpty else { throw InputError(message: "no photos or videos were found in the inputs") }
        try MediaLibraries.initialize()
        if let format = spec.format { _ = try MediaSettings.imageFormat(format.rawValue) }
        let video = VideoWork(edit: spec.edit, encoding: spec.encoding, chunkSeconds: spec.chunkSeconds)
        let chunks = try UnusableInputs.collect(spec.items.indices) { index in
            let item = spec.items[index]
            return try MediaChunk.plan(item: index, described: item.path, path: item.path, output: item.name, start: 0, end: nil,
                                       video: video, limits: spec.settings.mediaLimits, imageLimits: spec.settings.imageLimits,
                                       skipBad: spec.settings.skipBad)
        }.flatMap { $0 }
        return spec.settings.plan(chunks, finalizeWork: MediaChunk.packageWork(of: chunks))
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try MediaLibraries.initialize()
        let work = try MediaChunk(chunk)
        let item = spec.items[work.item]
        var path = RenderPath.cpu
        try context.guarding(item.path, skipBad: spec.settings.skipBad) {
            try ItemFailure.requireReadable(item.path, item: item.path)
            switch work {
            case .image:
                path = try CompressedImage(spec: spec, item: item).commit(in: context) {
                    environment.renderer(for: spec.settings.gpu, .photos)
                }
            case .segment(_, let index, let start, let end):
                path = try VideoChunks.segment(item.path, from: start, to: end, edit: spec.edit, encoding: spec.encoding,
                                               as: VideoChunks.segmentName(item.name, index), limits: spec.settings.mediaLimits,
                                               gpu: { environment.renderer(for: spec.settings.gpu, .video) },
                                               budget: environment.encoderBudget, context: context)
            case .audio(_, let start, let end, let track):
                try VideoChunks.audio(item.path, track: track ?? 0, from: start, to: end, mode: .copy,
                                      as: VideoChunks.audioName(item.name, track: track ?? 0),
                                      limits: spec.settings.mediaLimits, context: context)
            case .unreadable:
                _ = try AssetProbe.classify(item.path, limits: spec.settings.mediaLimits, imageLimits: spec.settings.imageLimits)
                throw ItemFailure(item: item.path, reason: "the file changed since the job was planned; restart the job")
            }
        }
        return path.rawValue
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "report")
        return try CompressPackager(spec: spec, context: context).package(try chunks.all().map(MediaChunk.init))
    }
}
