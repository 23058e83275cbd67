import EngineTestKit
import FFmpeg
import Foundation
import MediaTestKit
import Testing

/// Sound stays in sync with the pictures through a cut, a copy or a re-encode, and a join, as
/// the `ffmpeg` tool plays the result: the beep starts with the flash (``SyncClip``).
@Suite struct AudioSyncTests {
    let fixtures = Fixtures.shared

    /// Cuts `source` at `start` as an export does (audio from the first frame kept), joins, and
    /// returns the joined file.
    private func cutAndJoin(_ source: String, from start: Double, mode: AudioMode, in scratch: TemporaryDirectory,
                            track: Int = 0) throws -> String {
        let audio = scratch.path("audio.m4a"), video = scratch.path("video.mp4"), output = scratch.path("out.mp4")
        let first = try MediaProbe.firstFrameTime(source, from: start)
        try AudioTrack.extract(source: source, track: track, from: first, to: nil, mode: mode, output: audio)
        try SegmentEncoder.encode(source: source, from: start, to: nil, output: video)
        try SegmentJoiner.join(segments: [video], audio: [audio], output: output)
        return output
    }

    @Test(arguments: [AudioMode.copy, .aac(bitrate: 128_000)], [0.0, 0.51])
    func soundStaysInSyncThroughACutAndAJoin(mode: AudioMode, start: Double) throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("sync.mp4")
        try SyncClip.make(source)
        let expected = try SyncClip.offset(source)
        let offset = try SyncClip.offset(try cutAndJoin(source, from: start, mode: mode, in: scratch))
        print("\(mode) from \(start) s: beep \(offset) ms after the flash (source \(expected) ms)")
        #expect(abs(offset - expected) <= 2, "\(mode) from \(start) s: \(offset) ms, the source \(expected) ms")
    }

    @Test(arguments: [AudioMode.copy, .aac(bitrate: 128_000)])
    func aClipCutByStreamCopyKeepsItsEditListInSync(mode: AudioMode) throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("sync.mp4"), cut = scratch.path("cut.mp4")
        try SyncClip.make(source)
        // `-ss` before the input with stream copy starts at the keyframe before 0.7 s and writes
        // edit lists that hide what lies before 0.7 s, in the video and the audio.
        try MediaFixtures.ffmpeg(["-ss", "0.7", "-i", source, "-c", "copy", cut])
        let expected = try SyncClip.offset(cut)
        let output = try cutAndJoin(cut, from: 0, mode: mode, in: scratch)
        let offset = try SyncClip.offset(output)
        print("edit list, \(mode): beep \(offset) ms after the flash (source \(expected) ms)")
        #expect(abs(offset - expected) <= 2, "\(mode): \(offset) ms, the source \(expected) ms")
        #expect(abs(try MediaReference.duration(output) - (try MediaReference.duration(cut))) < 0.03)
        #expect(abs(try SyncClip.flash(output) - (SyncClip.flashTime - 0.7) * 1000) < 1)
    }

    @Test func theFirstFrameKeptIsTheFirstAtOrAfterTheStart() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("sync.mp4"), cut = scratch.path("cut.mp4")
        try SyncClip.make(source)
        // 30 fps: frame 16 is at 0.5333 s, the first at or after 0.51 s; a frame time is its own answer.
        #expect(abs(try MediaProbe.firstFrameTime(source, from: 0.51) - 16.0 / 30) < 1e-6)
        #expect(abs(try MediaProbe.firstFrameTime(source, from: 1) - 1) < 1e-6)
        #expect(try MediaProbe.firstFrameTime(source, from: 0) == 0)
        // Frames before an edit list's start are decoded but not shown: the first shown is at 0.
        try MediaFixtures.ffmpeg(["-ss", "0.7", "-i", source, "-c", "copy", cut])
        #expect(try MediaProbe.firstFrameTime(cut, from: 0) == 0)
    }

    @Test func copiedAudioKeepsItsPrimingAndPacketDurations() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("sync.mp4")
        try SyncClip.make(source)
        let output = try cutAndJoin(source, from: 0, mode: .copy, in: scratch)
        let packets = try CommandLineTool.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts,duration", "-of", "csv=p=0", output,
        ]).output
        let rows = String(decoding: packets, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",") }
        #expect(rows.first?.first == "-1024", "the priming packet starts 1024 samples before 0")
        #expect(rows.dropLast().allSatisfy { $0.last == "1024" }, "every AAC packet lasts 1024 samples")
    }

    @Test func everyAudioTrackCanBeTakenWithItsLanguageAndName() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("tracks.mkv")
        try SyncClip.make(source, tracks: [("eng", "Main"), ("fra", "Commentaire")])
        for mode in [AudioMode.copy, .aac(bitrate: 96_000)] {
            let output = scratch.path("track1.m4a")
            try AudioTrack.extract(source: source, track: 1, from: 0, to: nil, mode: mode, output: output)
            let tags = try CommandLineTool.run("ffprobe", [
                "-v", "error", "-show_entries", "stream_tags=language,handler_name", "-of", "csv=p=0:nk=0", output,
            ]).output
            let text = String(decoding: tags, as: UTF8.self)
            #expect(text.contains("language=fra") && text.contains("handler_name=Commentaire"), "\(mode): \(text)")
        }
        let error = try #require(throws: FFmpegError.self) {
            try AudioTrack.extract(source: source, track: 2, from: 0, to: nil, mode: .copy, output: scratch.path("x.m4a"))
        }
        #expect(error.kind == .noAudioStream && error.message.contains("it has 2"))
    }
}
