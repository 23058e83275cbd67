import Foundation

/// `mediajob compress <inputs…> --output DIR`: smaller copies for sharing.
package enum CompressCommand: MediaCommand {
    package static let name = "compress"
    package static let runsJobs = true
    package static let synopsis = "<input>... --output DIR [--max-size WxH|N] [--format F] [--quality Q | --target-size BYTES] [--video-crf N] [options]"
    package static let summary = "Make smaller copies of photos and videos for sharing"
    package static let discussion = """
        Inputs are files or folders (searched recursively). Photos are re-encoded in their own
        format where it is jpeg, webp or png (jpeg otherwise) or in --format, fitted inside
        --max-size (a box, or one number for the longest side), at
        --quality or at the best quality that meets --target-size. Videos are re-encoded to
        H.264 (libx264, --preset, --video-crf) in keyframe-aligned segments of bounded work
        (--chunk-seconds), as many at a time as this machine has cores for and its encoder
        memory holds (half of usable memory, or MEDIAJOB_ENCODER_MEMORY such as 600M), and
        joined without re-encoding; audio is copied. Where an output would be larger
        than its input, the input is copied instead and report.json says so (not where
        --max-size shrank it: the output then stays, larger or not). DIR must not
        exist yet unless --overwrite is given. Resizing (photos and video frames) runs on a
        Vulkan GPU when probing selected one, else on the CPU (--gpu). Photos are converted to
        sRGB through their ICC profile (--keep-profile keeps theirs) and keep only their capture
        time, description, artist and copyright (--keep-metadata keeps all), copies included;
        videos likewise keep capture time, copyright, artist, description and comment, and a
        copied video that carries more is rewritten without it (its streams untouched).

        Examples:
          mediajob compress holiday/ --output share --max-size 1920x1080
          mediajob compress photos/ --output web --max-size 1600 --format webp
          mediajob compress clip.mp4 --output small --video-crf 28
          mediajob compress photo.jpg --output mail --target-size 300000
        """
    package static let options: [OptionSpec] = [
        .option("max-size", "WxH|N", "fit inside this box, never enlarging (1920x1080), or N pixels on the longest side (1600)"),
        .option("format", "F", "photos in jpeg, webp, avif or png (default: their own where jpeg, webp or png; never a copy then)"),
        .option("quality", "Q", "photo quality 1 to 100 (default 80)"),
        .option("target-size", "BYTES", "largest size for each photo; the quality is searched to meet it"),
        .option("video-crf", "N", "x264 constant rate factor 0 to 51 (default 23; higher is smaller)"),
        .option("preset", "P", "x264 preset, ultrafast … veryslow (default veryfast)"),
        CommonOptions.keepProfile, CommonOptions.keepMetadata,
        .option("chunk-seconds", "S", "the most work one video chunk may be, in seconds on the reference machine "
                + "(default 5; a stop lands within about this long, shorter costs bytes)"),
    ] + CommonOptions.batch
}
