import FFmpeg
import PhotoJobs

/// The manifest's words for videos as FFmpeg's settings.
extension MediaSettings {
    /// The video edit for an asset; the export's maximum height bounds the asset's own.
    static func videoEdit(_ edits: ProjectManifest.Edits, maxHeight exportMaxHeight: Int?) -> VideoEdit {
        var edit = VideoEdit()
        edit.crop = edits.crop.map { VideoEdit.Crop(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        edit.quarterTurns = edits.rotate / 90
        edit.maxWidth = edits.maxWidth
        edit.maxHeight = [edits.maxHeight, exportMaxHeight].compactMap { $0 }.min()
        edit.exposure = edits.exposure
        edit.contrast = edits.contrast
        edit.saturation = edits.saturation
        return edit
    }

    /// The encoder for a manifest's video codec, if this FFmpeg has it.
    static func videoEncoding(_ settings: ExportSettings.VideoSettings) throws -> VideoEncoding {
        let candidates = ["h264": ["libx264"], "hevc": ["libx265"], "av1": ["libsvtav1", "libaom-av1"]][settings.codec] ?? []
        guard let encoder = candidates.first(where: FFmpeg.hasEncoder) else {
            throw UnsupportedSetting(message: "this FFmpeg has no \(settings.codec) encoder; choose h264")
        }
        return VideoEncoding(codec: encoder, crf: settings.crf, preset: settings.preset, threads: 1,
                             hdr: settings.hdr == "keep" ? .keep : .toneMap)
    }

    /// The audio mode for a manifest's audio setting.
    static func audioMode(_ settings: ExportSettings.AudioSettings) -> AudioMode {
        switch settings {
        case .copy: .copy
        case .aac(let bitrate): .aac(bitrate: bitrate)
        }
    }
}
