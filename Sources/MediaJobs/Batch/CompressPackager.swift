import FFmpeg
import Foundation
import JobEngine
import PhotoJobs
import Vips

/// The compress job's package stage: joins videos, keeps the input wherever the output came
/// out larger, writes `report.json`, and gathers everything into one folder.
struct CompressPackager {
    let spec: CompressJob.Spec
    let context: JobContext

    struct Entry: Codable, Equatable {
        var source: String
        var output: String
        var inputBytes: Int64
        var outputBytes: Int64
        /// The input was copied because compressing made it larger (a JPEG's metadata rewritten
        /// under the safe policy, its pixels untouched).
        var copied: Bool

        enum CodingKeys: String, CodingKey {
            case source, output, inputBytes = "input_bytes", outputBytes = "output_bytes", copied
        }
    }

    struct Report: Codable, Equatable {
        var items: [Entry]
        var skipped: [String]
        /// Streams of videos that the outputs do not keep (subtitles, data, attachments).
        var dropped: [String]
    }

    func package(_ chunks: [MediaChunk]) throws -> URL {
        let workspace = context.workspace
        var entries: [Entry] = [], skipped: [String] = [], dropped: [String] = []
        for (index, item) in spec.items.enumerated() {
            if let reason = context.skipReason(of: item.path) {
                skipped.append(reason)
                continue
            }
            let mine = chunks.filter { $0.item == index }
            var joined: String?
            var source: MediaInfo?
            if mine.contains(where: \.isImage) {
                joined = try CompressedImage.committedName(of: item, in: workspace)
            } else {
                // A video that does not join or check out is this item's failure, not the job's.
                try context.guarding(item.path, skipBad: spec.settings.skipBad) {
                    (joined, source) = try VideoChunks.joinItem(item.name, source: item.path, chunks: mine,
                                                                policy: spec.metadata, limits: spec.settings.mediaLimits,
                                                                context: context)
                }
            }
            guard var name = joined else {
                skipped.append(context.skipReason(of: item.path) ?? item.path)
                continue
            }
            var lost = source?.otherStreams ?? []
            let outputBytes = try FileSize.bytes(at: workspace.url(for: name).path)
            let inputBytes = try FileSize.bytes(at: item.path)
            // A photo asked for in a format (--format) is always that format's, never a copy; nor
            // is anything --max-size shrank, since the input would break the size asked for.
            let isImage = mine.contains(where: \.isImage)
            var copied = outputBytes >= inputBytes && !(spec.format != nil && isImage)
            if copied, try wasShrunk(workspace.url(for: name).path, from: item.path, isImage: isImage) { copied = false }
            var copyBytes = inputBytes
            let copy = copied && isImage
                ? try PhotoCopy.choose(for: item.path, policy: spec.metadata, limits: spec.settings.imageLimits) : .original
            if copy == .reencoded { copied = false }
            if copied {
                try DurableFiles.remove(workspace.url(for: name))
                name = "\(item.name).\(URL(fileURLWithPath: item.path).pathExtension.lowercased())"
                if case .rewritten(let data) = copy {
                    try workspace.commit(name, data: data)
                    copyBytes = Int64(data.count)
                } else if let source, VideoMetadata.removesSomething(from: source.tags, policy: spec.metadata) {
                    // A copied video keeps its packets; only its container is rewritten without what the policy removes.
                    try workspace.commit(name) { temporary in
                        lost = try Remuxer.remux(source: item.path, output: temporary.path,
                                          metadata: VideoMetadata.kept(source.tags, policy: spec.metadata),
                                          limits: spec.settings.mediaLimits, shouldStop: { [context] in context.isStopRequested })
                    }
                    copyBytes = try FileSize.bytes(at: workspace.url(for: name).path)
                } else {
                    try workspace.commit(name) { try FileManager.default.copyItem(atPath: item.path, toPath: $0.path) }
                    lost = []
                }
            }
            dropped += lost.map { "\(item.path): \($0)" }
            entries.append(Entry(source: item.path, output: name, inputBytes: inputBytes,
                                 outputBytes: copied ? copyBytes : outputBytes, copied: copied))
            try context.checkStop()
        }
        try workspace.commit("report.json", data: try StableJSON.encode(Report(items: entries, skipped: skipped, dropped: dropped)))
        return try PackageFolder.assemble(entries.map(\.output) + ["report.json"], in: workspace, as: "compressed")
    }

    /// Whether `output` has a shorter longest side than `input`, both upright: `--max-size` shrank it.
    /// Without `--max-size` nothing is shrunk, and nothing is read.
    private func wasShrunk(_ output: String, from input: String, isImage: Bool) throws -> Bool {
        guard spec.maxWidth != nil || spec.maxHeight != nil else { return false }
        func longestSide(_ path: String) throws -> Int {
            if isImage {
                let image = try VipsImage.load(path, limits: spec.settings.imageLimits)
                return max(image.width, image.height)
            }
            let video = try MediaProbe.probe(path, limits: spec.settings.mediaLimits, scanKeyframes: false).video
            return video.map { max($0.width, $0.height) } ?? 0
        }
        return try longestSide(output) < longestSide(input)
    }
}
