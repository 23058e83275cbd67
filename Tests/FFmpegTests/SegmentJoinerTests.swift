import EngineTestKit
import FFmpeg
import Foundation
import MediaInputLimits
import Testing

@Suite struct SegmentJoinerTests {
    let fixtures = Fixtures.shared

    /// Encodes [0, 1) and [1, 3) of the clip into `scratch`.
    private func twoSegments(in scratch: TemporaryDirectory, edit: VideoEdit = .identity) throws -> [String] {
        let paths = [scratch.path("s0.mp4"), scratch.path("s1.mp4")]
        try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1, edit: edit, output: paths[0])
        try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 3, edit: edit, output: paths[1])
        return paths
    }

    @Test func twoJoinedSegmentsHoldAllFramesAndLastAsLongAsTheSource() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("joined.mp4")
        try SegmentJoiner.join(segments: try twoSegments(in: scratch), audio: [fixtures.clip], output: output,
                               shouldStop: { false })
        #expect(try MediaReference.videoFrames(output) == 75)
        #expect(abs(try MediaReference.streamDuration(output, "v:0") - 3) <= 0.04)
        #expect(try MediaReference.codecs(output) == ["h264", "aac"])
        let verified = try MediaVerifier.verify(output, limits: MediaLimits())
        #expect(verified.frames == 75)
        #expect(verified.hasAudio)
        #expect(abs(verified.duration - 3) <= 0.05)
        // Frames come out in order and unharmed across the join.
        #expect(try MediaReference.psnr(output, against: fixtures.clip) > 35)
    }

    @Test func joiningTheSameSegmentsTwiceGivesTheSameBytes() throws {
        let scratch = fixtures.scratch()
        let segments = try twoSegments(in: scratch)
        for (name, fastStart) in [("a.mp4", true), ("b.mp4", true), ("c.mp4", false)] {
            try SegmentJoiner.join(segments: segments, audio: [fixtures.clip], output: scratch.path(name),
                                   fastStart: fastStart)
        }
        let a = try fixtures.bytes(scratch.path("a.mp4"))
        #expect(!a.isEmpty)
        #expect(a == (try fixtures.bytes(scratch.path("b.mp4"))))
        // The fast-start file differs only in where its index sits.
        #expect(a.count == (try fixtures.bytes(scratch.path("c.mp4"))).count)
    }

    @Test func videoOnlyJoinsNeedNoAudio() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("video.mp4")
        try SegmentJoiner.join(segments: try twoSegments(in: scratch), audio: [], output: output)
        #expect(try MediaReference.codecs(output) == ["h264"])
        #expect(try MediaReference.videoFrames(output) == 75)
    }

    @Test func segmentsOfDifferentSizesAreRefused() throws {
        let scratch = fixtures.scratch()
        let small = scratch.path("small.mp4"), large = scratch.path("large.mp4")
        try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1, output: large)
        try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 2, edit: VideoEdit(maxWidth: 160), output: small)
        let error = try #require(throws: FFmpegError.self) {
            try SegmentJoiner.join(segments: [large, small], audio: [], output: scratch.path("x.mp4"))
        }
        #expect(error.kind == .incompatibleSegments)
        #expect(error.message.contains(small))
    }

    @Test func aStopEndsTheJoin() throws {
        let scratch = fixtures.scratch()
        let segments = try twoSegments(in: scratch)
        let error = try #require(throws: FFmpegError.self) {
            try SegmentJoiner.join(segments: segments, audio: [], output: scratch.path("x.mp4"), shouldStop: { true })
        }
        #expect(error.isStopped)
    }
}
