import Foundation

/// Clips of solid vertical bars of known RGB colours, made by the `ffmpeg` tool with a chosen YUV
/// matrix, range and tags; and the colours a clip shows, read back through the `ffmpeg` tool,
/// which honours the clip's tags (an untagged clip it reads as BT.601, limited range).
public enum ColourBars {
    /// The bars' colours, left to right: pure green (the colour that showed the BT.601/BT.709 mix-up),
    /// red, blue, yellow, skin, mid grey, cyan, magenta.
    public static let colours: [SIMD3<Double>] = [
        [0, 253, 0], [230, 20, 20], [20, 20, 230], [240, 230, 30], [224, 172, 140], [128, 128, 128], [20, 200, 210],
        [200, 30, 190],
    ]

    /// How a clip's YUV values are written and tagged.
    public struct Encoding: Sendable, CustomStringConvertible {
        /// FFmpeg's matrix name (`bt709`, `bt601`); the values are written with it.
        public var matrix: String
        /// Whether the values use the full range (`-color_range pc`; the H.264 decoder then gives `yuvj420p`).
        public var fullRange: Bool
        /// The tags written (`-colorspace`, `-color_primaries`, `-color_trc`), or `nil` for none.
        public var tag: String?

        public var description: String { "\(tag ?? "untagged") \(matrix) \(fullRange ? "full" : "limited") range" }

        /// BT.601 values tagged as such (`smpte170m`).
        public static let bt601 = Encoding(matrix: "bt601", fullRange: false, tag: "smpte170m")
        /// BT.709 values tagged as such.
        public static let bt709 = Encoding(matrix: "bt709", fullRange: false, tag: "bt709")
        /// BT.601 values without any tag, as `ffmpeg` writes a clip it converts from RGB.
        public static let untagged = Encoding(matrix: "bt601", fullRange: false, tag: nil)
        /// BT.709 values in full range, tagged.
        public static let bt709FullRange = Encoding(matrix: "bt709", fullRange: true, tag: "bt709")
    }

    /// Makes `seconds` of bars at `width` × `height` and 25 fps, H.264 with a keyframe every
    /// second, losslessly encoded (`-qp 0`) so that what the clip shows is what its encoding says.
    public static func make(_ path: String, _ encoding: Encoding, width: Int = 320, height: Int = 48,
                            seconds: Int = 1) throws {
        let raw = path + ".rgb"
        try picture(width: width, height: height).write(to: URL(fileURLWithPath: raw))
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let range = encoding.fullRange ? "pc" : "tv"
        var arguments = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-r", "25",
                         "-stream_loop", "-1", "-i", raw,
                         "-t", String(seconds), "-vf",
                         "scale=out_color_matrix=\(encoding.matrix):out_range=\(range):flags=accurate_rnd+full_chroma_int,format=yuv420p",
                         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-g", "25"]
        if let tag = encoding.tag {
            arguments += ["-colorspace", tag, "-color_primaries", tag, "-color_trc", tag]
        }
        if encoding.fullRange || encoding.tag != nil { arguments += ["-color_range", range] }
        try MediaFixtures.ffmpeg(arguments + [path])
    }

    /// The colour at the middle of each bar in the first frame at or after `time` seconds of
    /// `path`, decoded to RGB by the `ffmpeg` tool with its tags honoured and accurate rounding.
    /// - Parameter bars: how many bars the picture holds, side by side.
    public static func shown(_ path: String, at time: Double = 0, bars: Int = colours.count) throws -> [SIMD3<Double>] {
        let (pixels, width, height) = try decodedFrame(path, at: time)
        return (0..<bars).map { bar in
            let x = (2 * bar + 1) * width / (2 * bars), y = height / 2
            let offset = (y * width + x) * 3
            return SIMD3(Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2]))
        }
    }

    /// The largest difference in any channel of any bar between `shown` and `expected`, in levels.
    public static func maxError(_ shown: [SIMD3<Double>], _ expected: [SIMD3<Double>]) -> Double {
        zip(shown, expected).map { pair -> Double in
            let difference = pair.0 - pair.1
            return max(abs(difference.x), abs(difference.y), abs(difference.z))
        }.max() ?? .infinity
    }

    /// The first video stream's pixel format and colour tags as `ffprobe` reports them:
    /// `pix_fmt`, `color_range`, `color_space`, `color_transfer`, `color_primaries`.
    public static func tags(_ path: String) throws -> [String: String] {
        let report = path + ".tags"
        defer { try? FileManager.default.removeItem(atPath: report) }
        try MediaFixtures.tool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=pix_fmt,color_range,color_space,color_transfer,color_primaries", "-of", "default=nw=1", "-o", report, path,
        ])
        var tags: [String: String] = [:]
        for line in try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    /// One frame of `path` as packed RGB24 with its size, by the `ffmpeg` tool.
    public static func decodedFrame(_ path: String, at time: Double = 0) throws -> (pixels: [UInt8], width: Int, height: Int) {
        let raw = path + ".frame.rgb", size = path + ".size"
        defer {
            try? FileManager.default.removeItem(atPath: raw)
            try? FileManager.default.removeItem(atPath: size)
        }
        // No seek for the first frame: `-ss 0` drops the only picture of a JPEG that carries EXIF.
        try MediaFixtures.ffmpeg((time > 0 ? ["-ss", String(time)] : []) + ["-i", path, "-frames:v", "1",
                                  "-vf", "scale=flags=accurate_rnd+full_chroma_int,format=rgb24", "-f", "rawvideo", raw])
        try MediaFixtures.tool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "stream=width,height", "-of", "csv=p=0", "-o", size, path])
        let dimensions = try String(contentsOfFile: size, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",").compactMap { Int($0) }
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        guard dimensions.count == 2, pixels.count == dimensions[0] * dimensions[1] * 3 else {
            throw MediaFixtures.FixtureError(message: "\(path): \(pixels.count) bytes for a \(dimensions) frame")
        }
        return (pixels, dimensions[0], dimensions[1])
    }

    /// The bars as packed RGB24.
    private static func picture(width: Int, height: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = colours[x * colours.count / width]
                for channel in 0..<3 { bytes[(y * width + x) * 3 + channel] = UInt8(colour[channel]) }
            }
        }
        return Data(bytes)
    }
}
