import EngineTestKit
import FFmpeg
import Foundation

/// Small media files made once per test process with the `ffmpeg` tool, shared by all suites.
///
/// Reaching ``shared`` also initialises the FFmpeg bridge through ``FFmpegTestSetup``.
final class Fixtures: Sendable {
    /// The fixtures, made on first use.
    static let shared: Fixtures = {
        FFmpegTestSetup.ready
        let fixtures: Fixtures
        do { fixtures = try Fixtures() } catch { fatalError("cannot make fixtures: \(error)") }
        // A static is never released, so its folder is removed when the test process exits.
        atexit { try? FileManager.default.removeItem(at: Fixtures.shared.folder.url) }
        return fixtures
    }()

    private let folder = TemporaryDirectory()

    /// 3 s of 320×240 test pattern at 25 fps (75 frames, keyframes at 0, 1, 2 s) with a sine
    /// tone, H.264 + AAC.
    let clip: String
    /// The same as ``clip`` with the index (moov) at the front.
    let fastStartClip: String
    /// ``clip`` in MPEG-TS: no index, so seeks search by timestamp, and a timeline that starts
    /// after 0.
    let transportStream: String
    /// 3 s of test pattern whose first second is black, video only.
    let blackStart: String
    /// 1 s of one solid colour, 64×64, video only.
    let solid: String
    /// ``clip``'s video with a display matrix that shows it turned 90° counterclockwise (FFmpeg
    /// 5.1's mov muxer writes that for the tag `rotate=90`; ffprobe reports `rotation=90`).
    let rotated: String

    private init() throws {
        clip = folder.path("clip.mp4")
        try CommandLineTool.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
            "-t", "3", "-g", "25", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-fflags", "+bitexact", clip,
        ])
        fastStartClip = folder.path("faststart.mp4")
        try CommandLineTool.ffmpeg(["-i", clip, "-c", "copy", "-movflags", "+faststart", fastStartClip])
        transportStream = folder.path("clip.ts")
        try CommandLineTool.ffmpeg(["-i", clip, "-c", "copy", "-f", "mpegts", transportStream])
        blackStart = folder.path("black-start.mp4")
        try CommandLineTool.ffmpeg([
            "-f", "lavfi", "-i",
            "testsrc2=size=320x240:rate=25,drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:enable='lt(t,1)'",
            "-t", "3", "-g", "25", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", blackStart,
        ])
        solid = folder.path("solid.mp4")
        try CommandLineTool.ffmpeg([
            "-f", "lavfi", "-i", "color=c=0x4a7a9a:size=64x64:rate=25", "-t", "1",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", solid,
        ])
        rotated = folder.path("rotated.mp4")
        try CommandLineTool.ffmpeg(["-i", clip, "-c", "copy", "-an", "-metadata:s:v", "rotate=90", rotated])
    }

    /// A new private folder for a test's outputs.
    func scratch() -> TemporaryDirectory { TemporaryDirectory() }

    /// Writes `text` to `name` in a fresh folder and returns the folder and the file's path.
    func textFile(_ name: String, _ text: String) throws -> (TemporaryDirectory, String) {
        let scratch = TemporaryDirectory()
        let path = scratch.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (scratch, path)
    }
}

extension Fixtures {
    /// Copies the first `fraction` of `path`'s bytes to `name` in `folder`, as a cut-short download would.
    func truncated(_ path: String, fraction: Double, as name: String, in folder: TemporaryDirectory) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let target = folder.path(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Reads a whole file.
    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
