import FFmpeg
@testable import MediaJobs
import Testing

@Suite struct SegmentPlannerTests {
    private let everySecond = (0..<120).map(Double.init)

    /// Segments without gaps from `start` to `end`, none longer than `limit`.
    private func expectCover(_ segments: [(start: Double, end: Double)], from start: Double, to end: Double, limit: Double) {
        #expect(segments.first?.start == start)
        #expect(segments.last?.end == end)
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(segments.allSatisfy { $0.end - $0.start > 0 && $0.end - $0.start <= limit })
    }

    @Test func aRangeIsCutOnKeyframesIntoEvenSharesThenHalvesTowardItsEnd() {
        // 30 s at 10 s at most: 10 + 10 while two limits are left, then 5, 2.5 and 1.25 on the
        // keyframes nearest (27 of 27 and 28, equally near), the last two within a quarter of the limit.
        let segments = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 0, to: 30)
        #expect(segments.map(\.start) == [0, 10, 20, 25, 27, 28])
        expectCover(segments, from: 0, to: 30, limit: 10)
        #expect(segments.suffix(2).allSatisfy { $0.end - $0.start <= 10 / 4 })
    }

    @Test func aRemainderIsSharedOutRatherThanLeftAsASliver() {
        // 21 s at 10 s at most: 7 + 7 (not 10 + 10 + 1), then the last 7 s halved: 3 + 2 + 2 on keyframes.
        let segments = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 0, to: 21)
        #expect(segments.map(\.start) == [0, 7, 14, 17, 19])
        expectCover(segments, from: 0, to: 21, limit: 10)
    }

    @Test func scenarioTwosClipEndsInShortSegmentsWhereFiveEqualOnesLeftOneCoreAlone() {
        // 1080p30 at veryfast: 7.688 s at most; keyframes every 2 s. The plan before was five
        // segments of 6 s, two at a time on two cores: the fifth ran alone. Now both cores
        // reach 15 s of video together (6 + 6 + 2 + 1 each), the last segment cut between keyframes.
        let keyframes = stride(from: 0.0, to: 30, by: 2).map { $0 }
        let segments = SegmentPlanner(maxSeconds: 7.688).segments(keyframes: keyframes, from: 0, to: 30)
        #expect(segments.map(\.start) == [0, 6, 12, 18, 24, 26, 28, 29])
        expectCover(segments, from: 0, to: 30, limit: 7.688)
    }

    @Test func anEvenShareCutsBetweenKeyframesRatherThanTakeOneFarFromItsPlace() {
        // 3.844 s at most (chunk_seconds 2.5) with keyframes every 2 s: shares of 3.75 s cut between
        // keyframes (not 2 s segments on them, twice as many), a keyframe taken within a quarter share.
        let keyframes = stride(from: 0.0, to: 30, by: 2).map { $0 }
        let segments = SegmentPlanner(maxSeconds: 3.844).segments(keyframes: keyframes, from: 0, to: 30)
        #expect(segments.map(\.start) == [0, 3.75, 7.5, 11.25, 15, 18, 21, 24, 26, 28, 29, 29.5])
        expectCover(segments, from: 0, to: 30, limit: 3.844)
    }

    @Test func theSegmentsCoverTheRangeWithTheLastOnesTheShortestAndNoSliver() {
        let keyframes: [Double] = [0, 2.5, 7.1, 9.9, 13.3, 16.0, 21.7, 30, 31.2]
        for (limit, start, end) in [(6.0, 1.2, 17.5), (6, 0, 40), (7.688, 0.5, 33), (3, 2, 29.5)] {
            let segments = SegmentPlanner(maxSeconds: limit).segments(keyframes: keyframes, from: start, to: end)
            expectCover(segments, from: start, to: end, limit: limit)
            let lengths = segments.map { $0.end - $0.start }
            // The last two are the shortest but never a sliver: between an eighth and a quarter of the limit,
            // and no segment before them is shorter than half of the last one.
            #expect(lengths.suffix(2).allSatisfy { $0 >= limit / 8 - 1e-9 && $0 <= limit / 4 + 1e-9 }, "\(lengths)")
            #expect(lengths.dropLast(2).allSatisfy { $0 >= lengths[lengths.count - 1] / 2 }, "\(lengths)")
        }
    }

    @Test func thePlanIsAFunctionOfTheRangeKeyframesAndLimitOnly() {
        let keyframes = stride(from: 0.0, to: 600, by: 1.5).map { $0 }
        let first = SegmentPlanner(maxSeconds: 7.688).segments(keyframes: keyframes, from: 3, to: 587.25)
        let again = SegmentPlanner(maxSeconds: 7.688).segments(keyframes: keyframes, from: 3, to: 587.25)
        #expect(first.map(\.start) == again.map(\.start) && first.map(\.end) == again.map(\.end))
        // A long range is even shares within the limit but for its last two limits.
        #expect(first.dropLast(8).allSatisfy { $0.end - $0.start >= 7.688 / 2 })
        #expect(abs(first.reduce(0) { $0 + $1.end - $1.start } - 584.25) < 1e-9)
    }

    @Test func aLongGroupOfPicturesIsCutBetweenKeyframesRatherThanExceedTheLimit() {
        // No keyframe after 0: even shares of 5 s, then halves down to an eighth of the limit.
        let segments = SegmentPlanner(maxSeconds: 5).segments(keyframes: [0], from: 0, to: 20)
        #expect(segments.map(\.start) == [0, 5, 10, 15, 17.5, 18.75, 19.375])
        expectCover(segments, from: 0, to: 20, limit: 5)
    }

    @Test func aRangeWithinTwoLimitsIsTwoSegmentsOnTheKeyframeNearestItsMiddleThatKeepsBothWithinTheLimit() {
        let even = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 0, to: 12)
        #expect(even.map(\.start) == [0, 6])
        expectCover(even, from: 0, to: 12, limit: 10)
        // 4.9 is nearer the middle (7.5) than 9.5 but would leave 10.1 s after it.
        let keyframes: [Double] = [0, 3, 4.9, 9.5, 11]
        #expect(SegmentPlanner(maxSeconds: 10).segments(keyframes: keyframes, from: 0, to: 15).map(\.start) == [0, 9.5])
        #expect(SegmentPlanner(maxSeconds: 10).segments(keyframes: [0, 3, 11], from: 0, to: 15).map(\.start) == [0, 7.5])
    }

    @Test func aRangeWithinTheLimitIsOneSegment() {
        let segments = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 2.5, to: 9)
        #expect(segments.count == 1)
        #expect(segments[0] == (start: 2.5, end: 9))
    }

    @Test func noLimitMeansOneSegment() {
        #expect(SegmentPlanner(maxSeconds: .infinity).segments(keyframes: everySecond, from: 0, to: 100).count == 1)
        #expect(SegmentPlanner(maxSeconds: 0).segments(keyframes: everySecond, from: 0, to: 100).count == 1)
    }

    @Test func anEmptyRangeHasNoSegments() {
        #expect(SegmentPlanner(maxSeconds: 5).segments(keyframes: everySecond, from: 5, to: 5).isEmpty)
    }
}

/// Segments are bounded by work (pixels × frames at the preset), the same on any machine.
@Suite struct VideoWorkTests {
    private func clip(_ width: Int, _ height: Int, fps: Double = 30) -> VideoInfo {
        VideoInfo(width: width, height: height, frameRate: fps, frameCount: nil, codecName: "h264", rotation: 0)
    }

    private func work(_ edit: VideoEdit = VideoEdit(), preset: String = "veryfast", chunkSeconds: Double = 5) -> VideoWork {
        VideoWork(edit: edit, encoding: VideoEncoding(codec: "libx264", crf: 23, preset: preset, threads: 1),
                  chunkSeconds: chunkSeconds)
    }

    @Test func aFrameIsItsOutputPixelsAtThePresetPlusTheDecodingOfItsSource() {
        // 1920 × 1080 = 2,073,600 pixels, decoded at 0.15 of an encoded pixel.
        #expect(work().perFrame(clip(1920, 1080)) == 2_073_600 * 1.15)
        var half = VideoEdit()
        half.maxHeight = 540
        #expect(work(half).perFrame(clip(1920, 1080)) == 960 * 540 + 2_073_600 * 0.15)
        #expect(work(preset: "slow").perFrame(clip(1920, 1080)) == 2_073_600 * 3.8 + 2_073_600 * 0.15)
    }

    @Test func noSegmentIsMoreWorkThanTheBudgetAndSlowerSettingsMakeShorterSegments() {
        let keyframes = stride(from: 0.0, to: 60, by: 0.5).map { $0 }
        for (preset, chunkSeconds) in [("veryfast", 5.0), ("slow", 5), ("veryfast", 2)] {
            let video = work(preset: preset, chunkSeconds: chunkSeconds)
            let segments = video.planner(for: clip(1920, 1080)).segments(keyframes: keyframes, from: 0, to: 40)
            let budget = VideoWork.referenceRate * chunkSeconds
            #expect(segments.allSatisfy { video.work(clip(1920, 1080), seconds: $0.end - $0.start) <= budget * (1 + 1e-9) },
                    "\(preset) at \(chunkSeconds) s")
            let fewest = Int((video.work(clip(1920, 1080), seconds: 40) / budget).rounded(.up))
            // Even shares, cut on keyframes, then up to four more as the last two limits halve.
            #expect((fewest...fewest + 4).contains(segments.count), "\(segments.count) segments, \(fewest) at the fewest")
            #expect(segments.dropFirst().allSatisfy { keyframes.contains($0.start) }, "cut on keyframes")
        }
        let fast = work().planner(for: clip(1920, 1080)).maxSeconds
        #expect(work(preset: "slow").planner(for: clip(1920, 1080)).maxSeconds < fast)
        #expect(work().planner(for: clip(1280, 720)).maxSeconds > fast)
    }

    @Test func theDefaultIsAboutSevenAndAHalfSecondsOf1080p30AtVeryfast() {
        // 110e6 × 5 / (2,073,600 × 1.15 × 30) s.
        #expect(abs(work().planner(for: clip(1920, 1080)).maxSeconds - 7.688) < 0.001)
    }
}
