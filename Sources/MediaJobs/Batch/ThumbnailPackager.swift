import Foundation
import JobEngine
import Vips

/// Gathers a thumbnail run's results into one folder: the thumbnails, `index.json` (source,
/// output, dimensions) and `contact-sheet.jpg`.
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
        var entries: [Entry] = [], skipped: [String] = [], images: [VipsImage] = []
        for item in spec.items {
            if let reason = context.skipReason(of: item.path) {
                skipped.append(reason)
                continue
            }
            let name = "\(item.name).\(format.fileExtension)"
            // This job made the thumbnail sRGB: its profile says so and needs no colour transform
            // again (one lcms transform a thumbnail was most of this stage's time). The sheet reads
            // each once, top to bottom, while making its cells.
            let image = try VipsImage.load(workspace.url(for: name).path, limits: spec.settings.imageLimits,
                                           access: .sequential)
                .withoutMetadata()
            // Only a GIF or WebP can be animated: other sources are not opened again.
            let frames = VipsImage.couldBeAnimated(item.path)
                ? PhotoFrames.animationFrames(of: item.path, limits: spec.settings.imageLimits) : nil
            entries.append(Entry(source: item.path, output: name, width: image.width, height: image.height,
                                 note: frames.map { "the first of its \($0) animation frames (thumbnails are stills)" }))
            images.append(image)
        }
        try workspace.commit("index.json", data: try StableJSON.encode(Index(thumbnails: entries, skipped: skipped)))
        if !images.isEmpty {
            let columns = Int(Double(images.count).squareRoot().rounded(.up))
            let sheet = try VipsImage.grid(images, columns: columns, cell: spec.size, spacing: 8, background: [32, 32, 32])
            try workspace.commit("contact-sheet.jpg") { temporary in
                try sheet.save(to: temporary.path, format: .jpeg, quality: 85, shouldStop: nil)
            }
        }
        let names = entries.map(\.output) + ["index.json"] + (images.isEmpty ? [] : ["contact-sheet.jpg"])
        return try PackageFolder.assemble(names, in: workspace, as: "thumbnails")
    }
}
