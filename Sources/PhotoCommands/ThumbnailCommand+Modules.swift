import MediaJobCLI
import PhotoJobs
import Vips

extension ThumbnailCommand {
    /// The libvips plugin modules the thumbnail run of `context` needs
    /// (``PhotoJobs/ThumbnailJob/vipsModules(for:format:)``), decided from its inputs' first bytes
    /// and `--format` before libvips starts; all when the run will refuse its inputs or `--format`,
    /// so that the refusal is the run's own, as without this.
    static func vipsModules(_ context: CommandContext) -> Vips.Modules {
        let items: [InputItem], format: ImageFormat?
        do {
            (items, format) = (try context.batch().items, try context.imageFormat())
        } catch {
            return .all
        }
        return ThumbnailJob.vipsModules(for: items, format: format ?? ThumbnailJob.defaultFormat)
    }
}
