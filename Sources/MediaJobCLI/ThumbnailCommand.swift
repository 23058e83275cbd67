import Foundation
import JobEngine
import MediaJobs
import TaskContract

/// `mediajob thumbnail <inputs…> --output DIR`: previews, an index and a contact sheet.
enum ThumbnailCommand: Command {
    static let name = "thumbnail"
    static let runsJobs = true
    static let synopsis = "<input>... --output DIR [--size N] [--format F] [--quality Q] [--overwrite] [--skip-bad] [options]"
    static let summary = "Make thumbnails of photos and videos, with an index and a contact sheet"
    static let discussion = """
        Inputs are files or folders (searched recursively for photos and videos). Photos are
        thumbnailed by libvips with shrink-on-load, in this process; a video gives its most
        detailed frame between 10 % and 70 % of its length (never a black first frame). DIR
        receives one thumbnail per input (named after its path; p3.jpg and p3.png give
        p3-jpg.jpg and p3-png.jpg), index.json (source, output, dimensions) and
        contact-sheet.jpg. DIR must not exist yet unless --overwrite is given.
        With --gpu on, photos are decoded whole and reduced on the GPU; otherwise (auto, off)
        shrink-on-load on the CPU is faster than any full decode, so photos stay there.
        Thumbnails and the contact sheet are always sRGB (converted through the photo's ICC
        profile); thumbnails keep the safe metadata set unless --keep-metadata is given.

        Examples:
          mediajob thumbnail ~/Pictures/2026 --output ~/thumbs --size 256
          mediajob thumbnail a.jpg b.mp4 --output previews --format webp
        """
    static let options: [OptionSpec] = [
        .option("size", "N", "longest side in pixels (default 256)"),
        .option("format", "F", "jpeg (default), webp, avif or png"),
        .option("quality", "Q", "1 to 100 (default 80)"),
        CommonOptions.keepMetadata,
    ] + CommonOptions.batch

    static func run(_ context: CommandContext) async throws -> Int32 {
        let arguments = context.arguments
        let (items, output) = try context.batch()
        let spec = ThumbnailJob.Spec(
            items: items, size: try arguments.integer("size", in: 16...4096) ?? 256,
            format: try context.imageFormat()?.rawValue ?? "jpeg", quality: try arguments.integer("quality", in: 1...100) ?? 80,
            settings: try context.batchSettings(output: output), metadata: arguments.has("keep-metadata") ? .all : .safe)
        // Photos stay on the CPU unless --gpu on (shrink-on-load beats any full decode).
        return try await JobSession(context: context, scheduler: try context.openScheduler())
            .submit(spec, kind: name, title: spec.title, gpu: spec.settings.gpu, announcing: spec.settings.gpu == .on)
    }
}
