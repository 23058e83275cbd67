import Foundation

/// `mediajob thumbnail <inputs…> --output DIR`: previews, an index and a contact sheet.
package enum ThumbnailCommand: MediaCommand {
    package static let name = "thumbnail"
    package static let runsJobs = true
    /// Thumbnail runs start in the program without FFmpeg, which hands a run with anything but
    /// photos to `mediajob-media`.
    package static let program = MediaProgram.photoFileName
    package static let synopsis = "<input>... --output DIR [--size N] [--format F] [--quality Q] [--sheet-cells N] [--overwrite] [--skip-bad] [options]"
    package static let summary = "Make thumbnails of photos and videos, with an index and a contact sheet"
    package static let discussion = """
        Inputs are files or folders (searched recursively for photos and videos). Photos are
        thumbnailed by libvips with shrink-on-load, in this process; a video gives its most
        detailed frame between 10 % and 70 % of its length (never a black first frame). DIR
        receives one thumbnail per input (named after its path; p3.jpg and p3.png give
        p3-jpg.jpg and p3-png.jpg), index.json (source, output, dimensions) and
        contact-sheet.jpg, which shows them in the order of index.json, 100 at most
        (--sheet-cells): more make numbered sheets (contact-sheet-1.jpg, contact-sheet-2.jpg,
        ..., zero-padded from 10 sheets on so that they sort), so that a run over a whole
        photo library takes no more memory than one of 100 photos.
        DIR must not exist yet unless --overwrite is given.
        With --gpu on, photos are decoded whole and reduced on the GPU; otherwise (auto, off)
        shrink-on-load on the CPU is faster than any full decode, so photos stay there.
        Thumbnails and the contact sheet are always sRGB (converted through the photo's ICC
        profile); thumbnails keep the safe metadata set unless --keep-metadata is given.

        Examples:
          mediajob thumbnail ~/Pictures/2026 --output ~/thumbs --size 256
          mediajob thumbnail a.jpg b.mp4 --output previews --format webp
        """
    package static let options: [OptionSpec] = [
        .option("size", "N", "longest side in pixels (default 256)"),
        .option("format", "F", "jpeg (default), webp, avif or png"),
        .option("quality", "Q", "1 to 100 (default 80)"),
        .option("sheet-cells", "N", "most thumbnails on one contact sheet, 1 to 10000 (default 100); more make numbered sheets"),
        CommonOptions.keepMetadata,
    ] + CommonOptions.batch
}
