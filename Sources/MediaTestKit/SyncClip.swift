import Foundation

/// Clips for audio-sync tests, made with the `ffmpeg` tool, and the measurement of sync in any
/// file with the `ffmpeg` tool: black pictures with one white frame (the flash) at
/// ``flashTime`` and silence with a 20 ms beep that starts at the same instant.
public enum SyncClip {
    /// When the flash is shown and the beep starts, in seconds from the start of a clip.
    public static let flashTime = 1.5

    /// Writes a 3 s clip, 320×240 at 30 fps with a keyframe every 0.5 s, H.264 and AAC at
    /// 48 kHz, with one audio track per entry of `tracks` (each `(language, title)`; every track
    /// has the beep, at a different pitch) and the extra `ffmpeg` output options `options`.
    /// - Parameter path: where to write; the extension chooses the container (`.mp4`, `.mkv`).
    public static func make(_ path: String, tracks: [(language: String, title: String)] = [("und", "")],
                            options: [String] = []) throws {
        let frame = Int((flashTime * 30).rounded())
        var arguments = ["-f", "lavfi", "-i",
                         "color=black:s=320x240:r=30:d=3,geq=lum='if(eq(N,\(frame)),235,16)':cb=128:cr=128"]
        for (number, _) in tracks.enumerated() {
            let pitch = 1000 + 250 * number
            arguments += ["-f", "lavfi", "-i",
                          "aevalsrc='if(between(t,\(flashTime),\(flashTime + 0.02)),0.8*sin(2*PI*\(pitch)*t),0)':s=48000:d=3"]
        }
        arguments += ["-map", "0:v"]
        for number in tracks.indices { arguments += ["-map", "\(number + 1):a"] }
        for (number, track) in tracks.enumerated() {
            arguments += ["-metadata:s:a:\(number)", "language=\(track.language)"]
            if !track.title.isEmpty { arguments += ["-metadata:s:a:\(number)", "title=\(track.title)"] }
        }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p",
                      "-c:a", "aac", "-b:a", "128k"]
        try MediaFixtures.ffmpeg(arguments + options + [path])
    }

    /// Milliseconds from the flash to the start of the beep of audio track `track` in `path`,
    /// as the `ffmpeg` tool plays the file (edit lists, priming and start times honoured):
    /// positive when the sound is late.
    /// - Throws: ``MediaFixtures/FixtureError`` when the file has no flash or no beep.
    public static func offset(_ path: String, track: Int = 0) throws -> Double {
        try beep(path, track: track) - flash(path)
    }

    /// The time of the first frame whose mean luma is above mid-grey, in milliseconds.
    public static func flash(_ path: String) throws -> Double {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("flash-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: log) }
        try MediaFixtures.ffmpeg(["-i", path, "-map", "0:v:0",
                                  "-vf", "signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=\(log.path)",
                                  "-f", "null", "-"])
        var time: Double?
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            if let range = line.range(of: "pts_time:") {
                time = Double(line[range.upperBound...].prefix { !$0.isWhitespace })
            } else if let range = line.range(of: "YAVG="), let luma = Double(line[range.upperBound...]), luma > 128,
                      let time {
                return time * 1000
            }
        }
        throw MediaFixtures.FixtureError(message: "no flash in \(path)")
    }

    /// The time at which audio track `track` first rises above −30 dBFS, in milliseconds.
    public static func beep(_ path: String, track: Int = 0) throws -> Double {
        let log = try MediaFixtures.ffmpeg(["-i", path, "-map", "0:a:\(track)", "-af", "silencedetect=n=-30dB:d=0.005",
                                            "-f", "null", "-", "-v", "info"])
        guard let range = log.range(of: "silence_end: "),
              let seconds = Double(log[range.upperBound...].prefix { !$0.isWhitespace }) else {
            throw MediaFixtures.FixtureError(message: "no beep in audio track \(track) of \(path)")
        }
        return seconds * 1000
    }
}
