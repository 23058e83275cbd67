import Foundation

/// Facts about media files as the `ffmpeg` and `ffprobe` tools see them: an independent reference
/// for what the bridge wrote.
enum MediaReference {
    /// The number of video packets (frames) in `path`.
    static func videoFrames(_ path: String) throws -> Int {
        let text = try probe(["-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                              "-of", "csv=p=0", path])
        return Int(text) ?? -1
    }

    /// The number of video frames `ffprobe` decodes from `path`.
    static func decodedFrames(_ path: String) throws -> Int {
        let text = try probe(["-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames",
                              "-of", "csv=p=0", path])
        return Int(text) ?? -1
    }

    /// The container's duration in seconds.
    static func duration(_ path: String) throws -> Double {
        Double(try probe(["-show_entries", "format=duration", "-of", "csv=p=0", path])) ?? -1
    }

    /// The duration of stream `selector` (for example `a:0`) in seconds.
    static func streamDuration(_ path: String, _ selector: String) throws -> Double {
        Double(try probe(["-select_streams", selector, "-show_entries", "stream=duration", "-of", "csv=p=0", path])) ?? -1
    }

    /// Width and height of the first video stream.
    static func size(_ path: String) throws -> (width: Int, height: Int) {
        let parts = try probe(["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", path])
            .split(separator: ",").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (-1, -1)
    }

    /// The codec names of all streams, in order.
    static func codecs(_ path: String) throws -> [String] {
        try probe(["-show_entries", "stream=codec_name", "-of", "csv=p=0", path]).split(separator: "\n").map(String.init)
    }

    /// The sample entry (codec tag) of the first video stream, for example `avc1`.
    static func videoTag(_ path: String) throws -> String {
        try probe(["-select_streams", "v:0", "-show_entries", "stream=codec_tag_string", "-of", "csv=p=0", path])
    }

    /// (presentation time, is keyframe) of the first `count` video packets in decoding order.
    static func firstPackets(_ path: String, count: Int) throws -> [(time: Double, key: Bool)] {
        try probe(["-select_streams", "v:0", "-read_intervals", "%+#\(count)", "-show_entries", "packet=pts_time,flags",
                   "-of", "csv=p=0", path])
            .split(separator: "\n").map { line in
                let fields = line.split(separator: ",")
                return (Double(fields.first ?? "") ?? -1, fields.count > 1 && fields[1].contains("K"))
            }
    }

    /// The first video frame of `path` as packed RGB24 bytes.
    static func firstFrameRGB(_ path: String, filter: String? = nil) throws -> Data {
        var arguments = ["-i", path]
        if let filter { arguments += ["-vf", filter] }
        arguments += ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        return try CommandLineTool.ffmpeg(arguments).output
    }

    /// The average luma PSNR in dB of `path` against `reference` (same size and frame count),
    /// after `filter` on the reference.
    static func psnr(_ path: String, against reference: String, referenceFilter: String = "null") throws -> Double {
        let result = try CommandLineTool.run("ffmpeg", [
            "-nostdin", "-v", "info", "-i", path, "-i", reference,
            "-lavfi", "[1:v]\(referenceFilter)[ref];[0:v][ref]psnr", "-f", "null", "-",
        ])
        guard let range = result.error.range(of: "y:") else { return -1 }
        let value = result.error[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? .infinity : Double(value) ?? -1
    }

    private static func probe(_ arguments: [String]) throws -> String {
        let output = try CommandLineTool.run("ffprobe", ["-v", "error"] + arguments).output
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
