import Archive
import FFmpeg
import Foundation
import JobEngine
import PhotoJobs

/// The package stage: joins each video's segments, writes the package's manifest, builds the
/// zip archive (or folder), and validates it before the engine publishes it.
struct ExportPackager {
    let spec: ExportJob.Spec
    let context: JobContext

    private var workspace: Workspace { context.workspace }
    private var shouldStop: @Sendable () -> Bool { { [context] in context.isStopRequested } }

    /// Builds and validates the package in the workspace and returns where it lies.
    func package(_ chunks: [MediaChunk]) throws -> URL {
        var files: [PackageFile] = []
        var skipped: [String] = [], dropped: [String] = []
        for (index, asset) in spec.manifest.assets.enumerated() {
            let item = ExportAssets.describe(index, in: spec)
            if let reason = context.skipReason(of: item) {
                skipped.append(reason)
                continue
            }
            let mine = chunks.filter { $0.item == index }
            if mine.contains(where: \.isImage) {
                let format = try MediaSettings.imageFormat(spec.manifest.export.image.format)
                files.append(try PackageFile(name: ExportAssets.outputName(asset.output, extension: format.fileExtension),
                                             in: workspace))
                if let lost = try PhotoFrames.lostFrames(of: ExportAssets.path(of: index, in: spec), format: format,
                                                            limits: spec.settings.imageLimits) {
                    dropped.append("\(ExportAssets.describe(index, in: spec)): \(lost)")
                }
            } else {
                // A video that does not join or check out is this asset's failure, not the job's.
                try context.guarding(item, skipBad: spec.settings.skipBad) {
                    let (file, source) = try joinVideo(index, chunks: mine)
                    files.append(file)
                    dropped += source.otherStreams.map { "\(ExportAssets.describe(index, in: spec)): \($0)" }
                }
                if let reason = context.skipReason(of: item) { skipped.append(reason) }
            }
            try context.checkStop()
        }
        let manifest = PackageManifest(name: spec.manifest.name, files: files, skipped: skipped, dropped: dropped)
        try workspace.commit(PackageManifest.fileName, data: manifest.encoded())
        let listed = files + [try PackageFile(name: PackageManifest.fileName, in: workspace)]
        return spec.manifest.export.package.format == "folder" ? try folder(listed) : try zip(listed, manifest: manifest)
    }

    /// Joins a video's segments and audio without re-encoding, with the source's metadata as the
    /// policy keeps it, and checks the result.
    /// - Returns: the joined file and the source as probed.
    private func joinVideo(_ index: Int, chunks: [MediaChunk]) throws -> (PackageFile, MediaInfo) {
        let (name, source) = try VideoChunks.joinItem(spec.manifest.assets[index].output,
                                                      source: ExportAssets.path(of: index, in: spec), chunks: chunks,
                                                      policy: spec.manifest.export.metadata,
                                                      limits: spec.settings.mediaLimits, context: context)
        return (try PackageFile(name: name, in: workspace), source)
    }

    /// A reproducible zip: entries in manifest order, fixed times; media stored, the manifest deflated.
    private func zip(_ files: [PackageFile], manifest: PackageManifest) throws -> URL {
        let name = "package.zip"
        let entries = files.map { ZipEntry(name: $0.name, source: $0.path, compressed: $0.name == PackageManifest.fileName) }
        try workspace.commit(name) { temporary in
            try ZipWriter.write(entries, to: temporary.path, shouldStop: shouldStop)
        }
        try PackageValidator.validate(zip: workspace.url(for: name).path, against: files)
        return workspace.url(for: name)
    }

    /// A folder holding the files (hard links to the workspace's copies).
    private func folder(_ files: [PackageFile]) throws -> URL {
        try PackageFolder.assemble(files.map(\.name), in: workspace, as: "package")
    }
}
