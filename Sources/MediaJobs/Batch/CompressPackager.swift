import Foundation
import JobEngine

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
    }

    func package(_ chunks: [MediaChunk]) throws -> URL {
        let workspace = context.workspace
        var entries: [Entry] = [], skipped: [String] = []
        for (index, item) in spec.items.enumerated() {
            if let reason = SkippedItems.reason(index, in: workspace) {
                skipped.append(reason)
                continue
            }
            let mine = chunks.filter { $0.item == index }
            var name = mine.contains(where: \.isImage)
                ? try CompressedImage.committedName(of: item, in: workspace)
                : try VideoChunks.joinItem(item.name, chunks: mine, limits: spec.settings.mediaLimits, context: context)
            let outputBytes = try FileSize.bytes(at: workspace.url(for: name).path)
            let inputBytes = try FileSize.bytes(at: item.path)
            var copied = outputBytes >= inputBytes, copyBytes = inputBytes
            let copy = copied && mine.contains(where: \.isImage)
                ? try PhotoCopy.choose(for: item.path, policy: spec.metadata, limits: spec.settings.imageLimits) : .original
            if copy == .reencoded { copied = false }
            if copied {
                try DurableFiles.remove(workspace.url(for: name))
                name = "\(item.name).\(URL(fileURLWithPath: item.path).pathExtension.lowercased())"
                if case .rewritten(let data) = copy {
                    try workspace.commit(name, data: data)
                    copyBytes = Int64(data.count)
                } else {
                    try workspace.commit(name) { try FileManager.default.copyItem(atPath: item.path, toPath: $0.path) }
                }
            }
            entries.append(Entry(source: item.path, output: name, inputBytes: inputBytes,
                                 outputBytes: copied ? copyBytes : outputBytes, copied: copied))
            try context.checkStop()
        }
        try workspace.commit("report.json", data: try StableJSON.encode(Report(items: entries, skipped: skipped)))
        return try PackageFolder.assemble(entries.map(\.output) + ["report.json"], in: workspace, as: "compressed")
    }
}
