import Foundation
import JobEngine
import Vips

/// Gathers a thumbnail run's results into one folder: the thumbnails, `index.json` (source,
/// output, dimensions) and the contact sheets (see ``ContactSheets``).
struct ThumbnailPackager {
    let spec: ThumbnailJob.Spec
    let context: JobContext

    private var workspace: Workspace { context.workspace }

    struct Entry: Codable, Equatable {
        var source: String
        var output: String
        var width: Int
        var height: Int
        /// What the thumbnail leaves out of its source, when anything.
        var note: String?
    }

    struct Index: Codable, Equatable {
        var thumbnails: [Entry]
        var skipped: [String]
    }

    func package() throws -> URL {
        let format = try MediaSettings.imageFormat(spec.format)
        var made: [(item: InputItem, name: String)] = [], skipped: [String] = []
        for item in spec.items {
            if let reason = context.skipReason(of: item.path) {
                skipped.append(reason)
            } else {
                made.append((item, "\(item.name).\(format.fileExtension)"))
            }
        }
        let sheets = ContactSheets(count: made.count, cellsPerSheet: spec.cellsPerSheet)
        var entries: [Entry] = []
        entries.reserveCapacity(made.count)
        // One sheet's thumbnails are open at a time, and its cells the only ones in memory.
        for sheet in 0..<sheets.sheetCount {
            var images: [VipsImage] = []
            for (item, name) in made[sheets.thumbnails(onSheet: sheet)] {
                let (entry, image) = try entry(for: item, thumbnail: name)
                entries.append(entry)
                images.append(image)
            }
            let grid = try VipsImage.grid(images, columns: sheets.columns, cell: spec.size, spacing: 8,
                                          background: [32, 32, 32])
            try workspace.commit(sheets.name(ofSheet: sheet)) { temporary in
                try grid.save(to: temporary.path, format: .jpeg, quality: 85, shouldStop: nil)
            }
        }
        try workspace.commit("index.json", data: try StableJSON.encode(Index(thumbnails: entries, skipped: skipped)))
        return try PackageFolder.assemble(entries.map(\.output) + ["index.json"] + sheets.names, in: workspace,
                                          as: "thumbnails")
    }

    /// The index entry of `item`'s thumbnail, committed as `name`, and the thumbnail opened for
    /// its sheet.
    private func entry(for item: InputItem, thumbnail name: String) throws -> (Entry, VipsImage) {
        // This job made the thumbnail sRGB: its profile says so and needs no colour transform
        // again (one lcms transform a thumbnail was most of this stage's time). The sheet reads
        // each once, top to bottom, while making its cells.
        let image = try VipsImage.load(workspace.url(for: name).path, limits: spec.settings.imageLimits,
                                       access: .sequential)
            .withoutMetadata()
        // Only a GIF or WebP can be animated: other sources are not opened again.
        let frames = VipsImage.couldBeAnimated(item.path)
            ? PhotoFrames.animationFrames(of: item.path, limits: spec.settings.imageLimits) : nil
        let entry = Entry(source: item.path, output: name, width: image.width, height: image.height,
                          note: frames.map { "the first of its \($0) animation frames (thumbnails are stills)" })
        return (entry, image)
    }
}
