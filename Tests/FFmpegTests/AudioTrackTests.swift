import FFmpeg
import Foundation
import MediaInputLimits
import Testing

@Suite struct AudioTrackTests {
    let fixtures = Fixtures.shared

    @Test func copyingTheWholeTrackKeepsItsDurationAndCodec() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("all.m4a")
        try AudioTrack.extract(source: fixtures.clip, from: 0, to: nil, mode: .copy, output: output,
                               limits: MediaLimits(), shouldStop: { false })
        #expect(try MediaReference.codecs(output) == ["aac"])
        #expect(abs(try MediaReference.streamDuration(output, "a:0") - 3) < 0.03)
    }

    @Test func copyingARangeCutsAtPacketBoundaries() throws {
        let scratch = fixtures.scratch()
        for name in ["range.m4a", "range.mka"] {
            let output = scratch.path(name)
            try AudioTrack.extract(source: fixtures.clip, from: 1, to: 2, mode: .copy, output: output)
            // One AAC packet is 1024 samples, 23 ms at 44.1 kHz.
            #expect(abs(try MediaReference.duration(output) - 1) < 0.05, "\(name)")
        }
    }

    @Test func reencodingToAACCutsToTheSample() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("aac.m4a")
        try AudioTrack.extract(source: fixtures.clip, from: 0.5, to: 2.5, mode: .aac(bitrate: 96_000), output: output)
        #expect(try MediaReference.codecs(output) == ["aac"])
        #expect(abs(try MediaReference.streamDuration(output, "a:0") - 2) < 0.01)
        let info = try MediaProbe.probe(output, scanKeyframes: true)
        #expect(info.video == nil && info.keyframes.isEmpty)
        #expect(info.audio == AudioInfo(codecName: "aac", sampleRate: 44100, channels: 1))
        let verified = try MediaVerifier.verify(output)
        #expect(verified.hasAudio && verified.frames == 0)
    }

    @Test func reencodingTwiceGivesTheSameBytes() throws {
        let scratch = fixtures.scratch()
        for name in ["a.m4a", "b.m4a"] {
            try AudioTrack.extract(source: fixtures.clip, from: 1, to: nil, mode: .aac(bitrate: 64_000),
                                   output: scratch.path(name))
        }
        let a = try fixtures.bytes(scratch.path("a.m4a"))
        #expect(!a.isEmpty)
        #expect(a == (try fixtures.bytes(scratch.path("b.m4a"))))
    }

    @Test func extractedAudioJoinsWithEncodedSegments() throws {
        let scratch = fixtures.scratch()
        let audio = scratch.path("audio.m4a"), segment = scratch.path("s.mp4"), output = scratch.path("out.mp4")
        try AudioTrack.extract(source: fixtures.clip, from: 1, to: 3, mode: .aac(bitrate: 96_000), output: audio)
        try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 3, output: segment)
        try SegmentJoiner.join(segments: [segment], audio: [audio], output: output)
        #expect(try MediaReference.codecs(output) == ["h264", "aac"])
        #expect(abs(try MediaReference.streamDuration(output, "a:0") - 2) < 0.01)
        #expect(try MediaVerifier.verify(output).frames == 50)
    }

    @Test func aVideoWithoutAudioHasNoTrackToExtract() throws {
        let scratch = fixtures.scratch()
        let error = try #require(throws: FFmpegError.self) {
            try AudioTrack.extract(source: fixtures.solid, from: 0, to: nil, mode: .copy, output: scratch.path("x.m4a"))
        }
        #expect(error.kind == .noAudioStream)
        #expect(error.message.contains(fixtures.solid))
    }
}
