import Foundation
import JobEngine
import MediaJobs
import TaskContract

/// `mediajob compress <inputs…> --output DIR`: smaller copies for sharing.
enum CompressCommand: Command {
    static let name = "compress"
    static let runsJobs = true
    static let synopsis = "<input>... --output DIR [--max-size WxH|N] [--format F] [--quality Q | --target-size BYTES] [--video-crf N] [options]"
    static let summary = "Make smaller copies of photos and videos for sharing"
    static let discussion = """
        Inputs are files or folders (searched recursively). Photos are re-encoded in their own
        format where it is jpeg, webp or png (jpeg otherwise) or in --format, fitted inside
        --max-size (a box, or one number for the longest side), at
        --quality or at the best quality that meets --target-size. Videos are re-encoded to
        H.264 (libx264, --preset, --video-crf) in keyframe-aligned segments of bounded work
        (--chunk-seconds), as many at a time as this machine has cores for, and joined without
        re-encoding; audio is copied. Where an output would be larger
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
    static let options: [OptionSpec] = [
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

    static func run(_ context: CommandContext) async throws -> Int32 {
        let arguments = context.arguments
        let (items, output) = try context.batch()
        if arguments.value("quality") != nil, arguments.value("target-size") != nil {
            throw UsageError("give --quality or --target-size, not both", command: name)
        }
        let box = try arguments.value("max-size").map { try maxSize($0) }
        let preset = arguments.value("preset") ?? "veryfast"
        guard ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"].contains(preset) else {
            throw UsageError("--preset must be an x264 preset such as veryfast or medium, got '\(preset)'", command: name)
        }
        let spec = CompressJob.Spec(
            items: items, maxWidth: box?.width, maxHeight: box?.height,
            quality: try arguments.integer("quality", in: 1...100) ?? 80,
            targetSize: try arguments.integer("target-size", in: 1_000...Int(Int32.max)).map(Int64.init),
            videoCRF: try arguments.integer("video-crf", in: 0...51) ?? 23, preset: preset,
            chunkSeconds: try chunkSeconds(arguments.value("chunk-seconds")),
            settings: try context.batchSettings(output: output),
            profile: arguments.has("keep-profile") ? .keep : .srgb, metadata: arguments.has("keep-metadata") ? .all : .safe,
            format: try context.imageFormat())
        return try await JobSession(context: context, scheduler: try context.openScheduler())
            .submit(spec, kind: name, title: spec.title, gpu: spec.settings.gpu)
    }

    /// Reads `--chunk-seconds`: 0.5 to 3600, default ``VideoWork/defaultChunkSeconds``.
    private static func chunkSeconds(_ text: String?) throws -> Double {
        guard let text else { return VideoWork.defaultChunkSeconds }
        guard let seconds = Double(text), (0.5...3600).contains(seconds) else {
            throw UsageError("--chunk-seconds must be a number of seconds from 0.5 to 3600, got '\(text)'", command: name)
        }
        return seconds
    }

    /// Reads `WxH`, or `N` for the longest side (an N×N box).
    private static func maxSize(_ text: String) throws -> (width: Int, height: Int) {
        var parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 1 { parts.append(parts[0]) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], [width, height].allSatisfy({ (16...65_535).contains($0) }) else {
            throw UsageError("--max-size expects WxH such as 1920x1080, or the longest side such as 1600, got '\(text)'", command: name)
        }
        return (width, height)
    }
}
