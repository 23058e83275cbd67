import Foundation
import PhotoJobs

/// Checks a decoded manifest's values: ranges, names, and that every asset lies inside the
/// project folder. Each problem names its field.
struct ManifestValidator {
    let file: String
    let folder: URL

    static let imageFormats = ["jpeg", "webp", "avif", "png"]
    static let videoCodecs = ["h264", "hevc", "av1"]
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    func validate(_ manifest: ProjectManifest) throws {
        try require(!manifest.name.trimmingCharacters(in: .whitespaces).isEmpty, "name", "must not be empty")
        try require(manifest.name.count <= 200, "name", "must be at most 200 characters")
        try require(!manifest.name.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }, "name",
                    "must not contain control characters")
        if manifest.export.package.name == nil {
            // The name then becomes the package's file name, beside the working folder: it must not lead elsewhere.
            try checkName(manifest.name, field: "name",
                          hint: "it names the package; set \"export\": {\"package\": {\"name\": …}} to name it otherwise")
        }
        try require(!manifest.assets.isEmpty, "assets", "the project has no assets; list at least one")
        var outputs: [String: Int] = [:]
        for (index, asset) in manifest.assets.enumerated() {
            let field = "assets[\(index)]"
            _ = try ProjectPaths.resolve(asset.path, in: folder, field: "\(field).path", manifest: file)
            try checkName(asset.output, field: "\(field).output")
            if let earlier = outputs[asset.output.lowercased()] {
                throw ManifestError(file: file, field: "\(field).output",
                                    problem: "'\(asset.output)' is already the output of assets[\(earlier)]; set a different \"output\"")
            }
            outputs[asset.output.lowercased()] = index
            try validate(asset.edits, field: "\(field).edits")
        }
        try validate(manifest.export)
    }

    private func validate(_ edits: ProjectManifest.Edits, field: String) throws {
        if let crop = edits.crop {
            try require(crop.x >= 0 && crop.y >= 0, "\(field).crop", "x and y must be 0 or more")
            try require((1...100_000).contains(crop.width) && (1...100_000).contains(crop.height),
                        "\(field).crop", "width and height must be between 1 and 100000")
        }
        try require(edits.rotate % 90 == 0 && (-270...270).contains(edits.rotate), "\(field).rotate",
                    "must be 0, 90, 180 or 270 (degrees clockwise), got \(edits.rotate)")
        for (name, value) in [("max_width", edits.maxWidth), ("max_height", edits.maxHeight)] {
            if let value { try require((1...65_535).contains(value), "\(field).\(name)", "must be between 1 and 65535, got \(value)") }
        }
        try require((-4...4).contains(edits.exposure), "\(field).exposure", "must be between -4 and 4 stops")
        try require((0...4).contains(edits.contrast), "\(field).contrast", "must be between 0 and 4")
        try require((0...4).contains(edits.saturation), "\(field).saturation", "must be between 0 and 4")
        if let trim = edits.trim {
            try require(trim.start.isFinite && (0...1_000_000).contains(trim.start), "\(field).trim.start",
                        "must be between 0 and 1000000 seconds")
            if let end = trim.end {
                try require(end.isFinite && end > trim.start && end <= 1_000_000, "\(field).trim.end",
                            "must be after start and at most 1000000 seconds")
            }
        }
    }

    private func validate(_ export: ExportSettings) throws {
        try require(Self.imageFormats.contains(export.image.format), "export.image.format",
                    "must be one of \(Self.imageFormats.joined(separator: ", ")), got '\(export.image.format)'")
        try require((1...100).contains(export.image.quality), "export.image.quality", "must be between 1 and 100")
        try require(Self.videoCodecs.contains(export.video.codec), "export.video.codec",
                    "must be one of \(Self.videoCodecs.joined(separator: ", ")), got '\(export.video.codec)'")
        try require((0...51).contains(export.video.crf), "export.video.crf", "must be between 0 and 51")
        try require(Self.presets.contains(export.video.preset), "export.video.preset",
                    "must be one of \(Self.presets.joined(separator: ", "))")
        try require(["tonemap", "keep"].contains(export.video.hdr), "export.video.hdr",
                    "must be tonemap or keep, got '\(export.video.hdr)'")
        try require(export.video.hdr != "keep" || ["hevc", "av1"].contains(export.video.codec), "export.video.hdr",
                    "keep needs codec hevc or av1 (HDR is kept as 10-bit HEVC or AV1); use tonemap with \(export.video.codec)")
        if let height = export.video.maxHeight {
            try require((16...8640).contains(height), "export.video.max_height", "must be between 16 and 8640")
        }
        try require((0.5...3600).contains(export.video.chunkSeconds), "export.video.chunk_seconds",
                    "must be between 0.5 and 3600 (seconds of work a video chunk may be)")
        if case .aac(let bitrate) = export.audio {
            try require((16_000...512_000).contains(bitrate), "export.audio.bitrate", "must be between 16000 and 512000")
        }
        try require(["zip", "folder"].contains(export.package.format), "export.package.format", "must be zip or folder")
        if let name = export.package.name { try checkName(name, field: "export.package.name") }
    }

    /// A name used for a file: not empty, no `/`, no control characters, not hidden, not too long.
    private func checkName(_ name: String, field: String, hint: String? = nil) throws {
        let hint = hint.map { "; \($0)" } ?? ""
        try require(!name.isEmpty && name.count <= 200, field, "must be 1 to 200 characters\(hint)")
        try require(!name.contains("/") && !name.contains("\\"), field, "must not contain / or \\\(hint)")
        try require(!name.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }, field,
                    "must not contain control characters\(hint)")
        try require(!name.hasPrefix("."), field, "must not start with a dot\(hint)")
    }

    private func require(_ condition: Bool, _ field: String, _ problem: String) throws {
        if !condition { throw ManifestError(file: file, field: field, problem: problem) }
    }
}
