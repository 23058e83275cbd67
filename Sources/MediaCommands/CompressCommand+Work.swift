import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands
import TaskContract

extension CompressCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
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
        return try await JobSession(context: context, scheduler: try context.openMediaScheduler(kinds))
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
