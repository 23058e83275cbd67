import Foundation
import JobEngine
import Vips

/// Gathers a thumbnail run's results into one folder: the thumbnails, `index.json` (source,
/// output, dimensions) and the contact sheets (see ``ContactSheets``).
package struct ThumbnailPackager {
    package let spec: ThumbnailJob.Spec
    package let context: JobContext
    /// Cells the run's chunks made in this process, joined instead of decoding their thumbnails.
    package let keptCells: SheetCellCache

    /// The contact sheets' background colour, between and around the cells.
    package static let sheetBackground: [Double] = [32, 32, 32]

    private var workspace: Workspace { context.workspace }

    package struct Entry: Codable, Equatable {
        var source: String
        var output: String
        var width: Int
        var height: Int
        /// What the thumbnail leaves out of its source, when anything.
        var note: String?
    }

    package struct Index: Codable, Equatable {
        var thumbnails: [Entry]
        var skipped: [String]
    }

    package func package() throws -> URL {
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
        // One sheet's thumbnails are open at a time, and its cells the only ones in memory besides
        // those the chunks kept (at most SheetCellCache's budget).
        for sheet in 0..<sheets.sheetCount {
            var cells: [VipsImage?] = [], opened: [VipsImage] = []
            for (item, name) in made[sheets.thumbnails(onSheet: sheet)] {
                let (entry, input) = try entry(for: item, thumbnail: name)
                entries.append(entry)
                switch input {
                case .cell(let cell): cells.append(cell)
                case .thumbnail(let image): cells.append(nil); opened.append(image)
                }
            }
            var madeHere = try VipsImage.sheetCells(opened, size: spec.size, background: Self.sheetBackground).makeIterator()
            let grid = try VipsImage.grid(cells: cells.map { $0 ?? madeHere.next()! }, columns: sheets.columns,
                                          cell: spec.size, spacing: 8, background: Self.sheetBackground)
            try workspace.commit(sheets.name(ofSheet: sheet)) { temporary in
                try grid.save(to: temporary.path, format: ThumbnailJob.sheetFormat, quality: 85, shouldStop: nil)
            }
        }
        try workspace.commit("index.json", data: try StableJSON.encode(Index(thumbnails: entries, skipped: skipped)))
        return try PackageFolder.assemble(entries.map(\.output) + ["index.json"] + sheets.names, in: workspace,
                                          as: "thumbnails")
    }

    /// What a thumbnail brings to its sheet: the cell its chunk made, or the thumbnail opened to
    /// make one from.
    private enum SheetInput {
        case cell(VipsImage)
        case thumbnail(VipsImage)
    }

    /// The index entry of `item`'s thumbnail, committed as `name`, and its cell kept by the chunk
    /// that made it or else the thumbnail opened for its sheet.
    private func entry(for item: InputItem, thumbnail name: String) throws -> (Entry, SheetInput) {
        let path = workspace.url(for: name).path
        let input: SheetInput, width: Int, height: Int
        if let kept = keptCells.take(madeFrom: path, in: workspace.directory, cellSize: spec.size,
                                     background: Self.sheetBackground) {
            (input, width, height) = (.cell(kept.image), kept.width, kept.height)
        } else {
            let image = try Self.openForSheet(path, limits: spec.settings.imageLimits)
            (input, width, height) = (.thumbnail(image), image.width, image.height)
        }
        // Only a GIF or WebP can be animated: other sources are not opened again.
        let frames = VipsImage.couldBeAnimated(item.path)
            ? PhotoFrames.animationFrames(of: item.path, limits: spec.settings.imageLimits) : nil
        let entry = Entry(source: item.path, output: name, width: width, height: height,
                          note: frames.map { "the first of its \($0) animation frames (thumbnails are stills)" })
        return (entry, input)
    }

    /// The thumbnail at `path`, made by this job, opened to make its sheet cell.
    package static func openForSheet(_ path: String, limits: ImageLimits) throws -> VipsImage {
        // This job made the thumbnail sRGB: its profile says so and needs no colour transform
        // again (one lcms transform a thumbnail was most of this stage's time). The sheet reads
        // each once, top to bottom, while making its cells.
        try VipsImage.load(path, limits: limits, access: .sequential).withoutMetadata()
    }
}
