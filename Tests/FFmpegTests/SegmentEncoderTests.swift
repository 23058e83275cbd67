import EngineTestKit
import FFmpeg
import Foundation
import MediaInputLimits
import MediaTestKit
import Synchronization
import Testing

@Suite struct SegmentEncoderTests {
    let fixtures = Fixtures.shared

    @Test func segmentsBetweenKeyframesHoldTheirFramesAndStartWithAKeyframeAtZero() throws {
        let scratch = fixtures.scratch()
        let first = scratch.path("0.mp4"), second = scratch.path("1.mp4")
        #expect(try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1, edit: .identity,
                                          encoding: VideoEncoding(), output: first, limits: MediaLimits(),
                                          shouldStop: { false }) == 25)
        #expect(try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 3, output: second) == 50)
        #expect(try MediaReference.videoFrames(first) == 25)
        #expect(try MediaReference.videoFrames(second) == 50)
        #expect(abs(try MediaReference.duration(second) - 2) < 0.04)
        #expect(try MediaReference.codecs(second) == ["h264"])
        let packets = try MediaReference.firstPackets(second, count: 1)
        #expect(packets.first?.time == 0)
        #expect(packets.first?.key == true)
    }

    @Test func everyKeyframeRangeOfATransportStreamHoldsItsFrames() throws {
        let scratch = fixtures.scratch()
        let info = try MediaProbe.probe(fixtures.transportStream, scanKeyframes: true)
        #expect(info.keyframes.count == 3)
        #expect(info.keyframes.first.map { $0 > 1 } == true)
        var counts: [Int] = []
        var segments: [String] = []
        for (index, start) in info.keyframes.enumerated() {
            let end = index + 1 < info.keyframes.count ? info.keyframes[index + 1] : nil
            segments.append(scratch.path("\(index).mp4"))
            counts.append(try SegmentEncoder.encode(source: fixtures.transportStream, from: start, to: end,
                                                    output: segments[index]))
        }
        #expect(counts == [25, 25, 25])
        let joined = scratch.path("joined.mp4")
        try SegmentJoiner.join(segments: segments, audio: [], output: joined)
        #expect(try MediaReference.psnr(joined, against: fixtures.clip) > 35)
    }

    @Test func anOpenEndedRangeRunsToTheEndOfTheVideo() throws {
        let scratch = fixtures.scratch()
        #expect(try SegmentEncoder.encode(source: fixtures.clip, from: 2, to: nil, output: scratch.path("t.mp4")) == 25)
    }

    @Test func encodingTheSameRangeTwiceGivesTheSameBytes() throws {
        let scratch = fixtures.scratch()
        let edit = VideoEdit(maxWidth: 160, exposure: 0.3)
        for name in ["a.mp4", "b.mp4"] {
            try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 2, edit: edit, output: scratch.path(name))
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: scratch.path("a.mp4")))
        let b = try Data(contentsOf: URL(fileURLWithPath: scratch.path("b.mp4")))
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    @Test func cropTurnAndResizeGiveTheExpectedSize() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("edit.mp4")
        let edit = VideoEdit(crop: .init(x: 10, y: 20, width: 200, height: 100), quarterTurns: 1, maxWidth: 50)
        #expect(try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1, edit: edit, output: output) == 25)
        let size = try MediaReference.size(output)
        #expect(size.width == 50 && size.height == 100)
    }

    @Test func theEditMatchesTheToolsCropAndTranspose() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("edit.mp4")
        let edit = VideoEdit(crop: .init(x: 40, y: 20, width: 200, height: 160), quarterTurns: -1)
        try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1, edit: edit, output: output)
        let psnr = try MediaReference.psnr(output, against: fixtures.clip,
                                           referenceFilter: "trim=end_frame=25,crop=200:160:40:20,transpose=cclock")
        #expect(psnr > 32)
    }

    @Test func theDisplayRotationIsAppliedBeforeTheEdit() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("upright.mp4")
        try SegmentEncoder.encode(source: fixtures.rotated, from: 0, to: 1, output: output)
        let size = try MediaReference.size(output)
        #expect(size.width == 240 && size.height == 320)
        let psnr = try MediaReference.psnr(output, against: fixtures.clip,
                                           referenceFilter: "trim=end_frame=25,transpose=cclock")
        #expect(psnr > 32)
    }

    @Test func anIdentityEditKeepsThePictureClose() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("same.mp4")
        try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: nil, output: output)
        #expect(try MediaReference.psnr(output, against: fixtures.clip) > 35)
    }

    @Test func theColourEditFollowsTheEightBitDefinition() throws {
        let scratch = fixtures.scratch()
        let output = scratch.path("colour.mp4")
        let edit = VideoEdit(exposure: 0.5, contrast: 1.2, saturation: 1.5)
        try SegmentEncoder.encode(source: fixtures.solid, from: 0, to: nil, edit: edit, output: output)
        let source = try MediaReference.firstFrameRGB(fixtures.solid)
        let result = try MediaReference.firstFrameRGB(output)
        let centre = (32 * 64 + 32) * 3
        let expected = ColourDefinition.apply(edit, to: (Double(source[centre]), Double(source[centre + 1]),
                                                         Double(source[centre + 2])))
        let actual = (Double(result[centre]), Double(result[centre + 1]), Double(result[centre + 2]))
        #expect(abs(actual.0 - expected.0) <= 6, "red \(actual.0) vs \(expected.0)")
        #expect(abs(actual.1 - expected.1) <= 6, "green \(actual.1) vs \(expected.1)")
        #expect(abs(actual.2 - expected.2) <= 6, "blue \(actual.2) vs \(expected.2)")
        // The edit changes the colour noticeably, so the comparison above means something.
        #expect(abs(actual.0 - Double(source[centre])) + abs(actual.2 - Double(source[centre + 2])) > 30)
    }

    @Test func aStopClosureThatSaysYesEndsTheEncodeAsStopped() throws {
        let scratch = fixtures.scratch()
        let calls = Atomic<Int>(0)
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: nil, output: scratch.path("stop.mp4"),
                                      shouldStop: { calls.add(1, ordering: .relaxed).newValue > 40 })
        }
        #expect(error.kind == .stopped)
        #expect(error.isStopped)
        #expect(calls.load(ordering: .relaxed) > 40)
    }

    @Test func aStopBeforeTheStartStopsAtOnce() throws {
        let scratch = fixtures.scratch()
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: nil, output: scratch.path("stop.mp4"),
                                      shouldStop: { true })
        }
        #expect(error.kind == .stopped)
    }

    @Test func aRangeWithoutFramesIsRefused() throws {
        let scratch = fixtures.scratch()
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 5, to: 6, output: scratch.path("empty.mp4"))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.category == .invalidInput)
    }

    @Test func aCropOutsideThePictureIsRefused() throws {
        let scratch = fixtures.scratch()
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1,
                                      edit: VideoEdit(crop: .init(x: 300, y: 0, width: 40, height: 40)),
                                      output: scratch.path("crop.mp4"))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("crop"))
    }

    @Test func anEncoderMissingFromTheBuildIsReported() throws {
        let scratch = fixtures.scratch()
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: 1,
                                      encoding: VideoEncoding(codec: "no-such-encoder"), output: scratch.path("x.mp4"))
        }
        #expect(error.kind == .encoderUnavailable)
        #expect(!FFmpeg.hasEncoder("no-such-encoder"))
        #expect(FFmpeg.hasEncoder("libx264"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskIsReportedAsNoSpace() throws {
        let error = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: nil, output: "/dev/full")
        }
        #expect(error.category == .noSpace)
        #expect(error.message.contains("/dev/full"))
    }
}

@Suite struct OtherEncoderTests {
    let fixtures = Fixtures.shared

    @Test(arguments: ["libx265", "libsvtav1"].filter(FFmpeg.hasEncoder))
    func otherEncodersAreReproducibleAndJoinable(codec: String) throws {
        let scratch = fixtures.scratch()
        let encoding = VideoEncoding(codec: codec, crf: 35, preset: "ultrafast")
        let a = scratch.path("a.mp4"), b = scratch.path("b.mp4"), c = scratch.path("c.mp4")
        for path in [a, b] {
            #expect(try SegmentEncoder.encode(source: fixtures.clip, from: 1, to: 1.4, encoding: encoding, output: path) == 10)
        }
        #expect(try SHA256Hasher.hex(ofFile: a) == SHA256Hasher.hex(ofFile: b))
        try SegmentEncoder.encode(source: fixtures.clip, from: 2, to: 2.4, encoding: encoding, output: c)
        let joined = scratch.path("joined.mp4")
        try SegmentJoiner.join(segments: [a, c], audio: [], output: joined)
        #expect(try MediaVerifier.verify(joined).frames == 20)
        if codec == "libx265" {
            #expect(try MediaReference.videoTag(a) == "hvc1")
            #expect(try MediaReference.videoTag(joined) == "hvc1")
        }
    }

    /// Left to itself, x265 writes its build and the CPU features of the machine (`cpuid=`) into
    /// an "info" SEI in every stream, so the same plan would give other bytes on another machine
    /// of a farm (DESIGN.md §10). The source, made by the `ffmpeg` tool's x265, shows the check
    /// sees one where it is.
    @Test(.enabled(if: FFmpeg.hasEncoder("libx265")))
    func hevcHoldsNothingAboutTheMachineThatEncodedIt() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("source.mp4"), output = scratch.path("hevc.mp4")
        try HDRClip.make(source)
        #expect(try EncoderInfo.x265(in: source)?.contains("cpuid=") == true)
        let encoding = VideoEncoding(codec: "libx265", crf: 35, preset: "ultrafast")
        #expect(try SegmentEncoder.encode(source: source, from: 0, to: 1, encoding: encoding, output: output) == 25)
        let info = try EncoderInfo.x265(in: output)
        #expect(info == nil, "\(info ?? "")")
        #expect(try MediaReference.decodedFrames(output) == 25)
    }
}
