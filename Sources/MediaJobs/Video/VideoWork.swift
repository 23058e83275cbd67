import FFmpeg
import PhotoJobs

/// How much work a video's frames are, and so how long its segments may be.
///
/// The unit is one output pixel of one frame encoded by one-threaded x264 `veryfast`, plus the
/// decoding of the source pixels behind it at a fixed share: ``perFrame(_:)``. Other presets and
/// codecs weigh their pixels by how much slower they encode (measured on the reference machine,
/// a 2-core x86-64 server, with `ffmpeg -threads 1 … -c:v libx264 -preset P -threads 1`). The
/// weights and ``referenceRate`` are constants, not measurements of the machine at hand, so that
/// one job has the same segments wherever it is planned; the engine learns what a unit really
/// costs on each machine from the chunks it runs.
public struct VideoWork: Sendable {
    /// What the frames are turned into.
    var edit: VideoEdit
    var encoding: VideoEncoding
    /// The most work one segment may be, in seconds on the reference machine.
    var chunkSeconds: Double

    /// The default of ``chunkSeconds``: a stop lands within about this long.
    public static let defaultChunkSeconds = ExportSettings.VideoSettings.defaultChunkSeconds

    /// Units of work one thread of the reference machine does in a second: 1080p `veryfast`
    /// H.264, decoding included, runs there at about 46 frames a second.
    static let referenceRate = 110e6

    /// How much more a source pixel costs to decode (and convert) than nothing, against an
    /// output pixel's encoding at `veryfast`.
    static let decodeShare = 0.15

    /// Encoding time per pixel of each x264 preset against `veryfast` (AV1 encoders map presets
    /// to their own speeds; the weight is a rough guide there).
    static let presetWeights: [String: Double] = [
        "ultrafast": 0.5, "superfast": 0.7, "veryfast": 1, "faster": 1.6, "fast": 2, "medium": 2.2,
        "slow": 3.8, "slower": 6.1, "veryslow": 9.9,
    ]

    /// Encoding time per pixel of each encoder against x264 at the same preset.
    static let codecWeights: [String: Double] = ["libx264": 1, "libx265": 5, "libsvtav1": 3, "libaom-av1": 10]

    /// The work of one frame of `video`.
    func perFrame(_ video: VideoInfo) -> Double {
        let source = Double(video.width * video.height)
        let weight = (Self.codecWeights[encoding.codec] ?? 1) * (Self.presetWeights[encoding.preset] ?? 1)
        return outputPixels(video) * weight + source * Self.decodeShare
    }

    /// The work of `seconds` of `video`.
    func work(_ video: VideoInfo, seconds: Double) -> Double {
        perFrame(video) * max(0, seconds) * (video.frameRate > 0 ? video.frameRate : 30)
    }

    /// Segments of `video` no more than ``chunkSeconds`` of work each.
    func planner(for video: VideoInfo) -> SegmentPlanner {
        SegmentPlanner(maxSeconds: Self.referenceRate * chunkSeconds / work(video, seconds: 1))
    }

    /// Pixels in each output frame: the shown picture, cropped, turned, fitted inside the
    /// maximum size without enlarging.
    func outputPixels(_ video: VideoInfo) -> Double {
        var width = Double(edit.crop?.width ?? video.displayWidth), height = Double(edit.crop?.height ?? video.displayHeight)
        if edit.quarterTurns % 2 != 0 { swap(&width, &height) }
        let scale = min(1, edit.maxWidth.map { Double($0) / width } ?? 1, edit.maxHeight.map { Double($0) / height } ?? 1)
        return width * height * scale * scale
    }
}
