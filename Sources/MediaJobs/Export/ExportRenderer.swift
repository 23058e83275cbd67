import FFmpeg
import Foundation
import GPURender
import JobEngine
import PhotoJobs
import Vips

/// Does one export chunk: renders and encodes an image, a video segment, or a video's audio,
/// committing the result to the workspace, and tells which path rendered it.
struct ExportRenderer {
    let spec: ExportJob.Spec
    /// The renderer an operation's pictures use, or `nil` for the CPU.
    let gpu: (RenderOperation) -> GPURenderer?
    /// The memory video encoders share in this process.
    let budget: EncoderBudget
    let context: JobContext

    func render(_ work: MediaChunk) throws -> RenderPath {
        let asset = spec.manifest.assets[work.item]
        let source = try ExportAssets.path(of: work.item, in: spec)
        try ItemFailure.requireReadable(source, item: ExportAssets.describe(work.item, in: spec))
        switch work {
        case .image:
            let settings = spec.manifest.export.image
            let format = try MediaSettings.imageFormat(settings.format)
            let loaded = try VipsImage.load(source, limits: spec.settings.imageLimits).colourManaged(settings.profile)
            let (image, path) = try PhotoFrames.render(asset.edits, image: loaded, path: source, format: format,
                                                       profile: settings.profile, limits: spec.settings.imageLimits,
                                                       gpu: { gpu(.photos) })
            try context.workspace.commit(ExportAssets.outputName(asset.output, extension: format.fileExtension)) { temporary in
                try image.save(to: temporary.path, format: format, quality: settings.quality,
                               metadata: spec.manifest.export.metadata,
                               shouldStop: { [context] in context.isStopRequested })
            }
            return path
        case .segment(_, let index, let start, let end):
            return try VideoChunks.segment(source, from: start, to: end,
                                    edit: MediaSettings.videoEdit(asset.edits, maxHeight: spec.manifest.export.video.maxHeight),
                                    encoding: try MediaSettings.videoEncoding(spec.manifest.export.video),
                                    as: VideoChunks.segmentName(asset.output, index), limits: spec.settings.mediaLimits,
                                    gpu: { gpu(.video) }, budget: budget, context: context)
        case .audio(_, let start, let end, let track):
            try VideoChunks.audio(source, track: track ?? 0, from: start, to: end,
                                  mode: MediaSettings.audioMode(spec.manifest.export.audio),
                                  as: VideoChunks.audioName(asset.output, track: track ?? 0),
                                  limits: spec.settings.mediaLimits, context: context)
            return .cpu
        case .unreadable:
            _ = try AssetProbe.classify(source, limits: spec.settings.mediaLimits, imageLimits: spec.settings.imageLimits)
            throw ItemFailure(item: ExportAssets.describe(work.item, in: spec),
                              reason: "the file changed since the job was planned; restart the job")
        }
    }
}
