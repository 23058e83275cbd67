import FFmpeg
@testable import MediaJobs
import Testing

@Suite struct SegmentPlannerTests {
    private let everySecond = (0..<120).map(Double.init)

    @Test func aRangeIsCutIntoEqualSegmentsOnKeyframesNoneLongerThanTheLimit() {
        let segments = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 0, to: 30)
        #expect(segments.map(\.start) == [0, 10, 20])
        #expect(segments.map(\.end) == [10, 20, 30])
    }

    @Test func aRemainderIsSharedOutRatherThanLeftAsASliver() {
        // 21 s at 10 s at most: three segments of about 7 s, not 10 + 10 + 1.
        let segments = SegmentPlanner(maxSeconds: 10).segments(keyframes: everySecond, from: 0, to: 21)
        #expect(segments.map(\.start) == [0, 7, 14])
        #expect(segments.allSatisfy { $0.end - $0.start == 7 })
    }

    @Test func cutsFallOnKeyframesWithinTheLimitAndTheSegmentsCoverTheRangeWithoutGaps() {
        let keyframes: [Double] = [0, 2.5, 7.1, 9.9, 13.3, 16.0]
        let segments = SegmentPlanner(maxSeconds: 6).segments(keyframes: keyframes, from: 1.2, to: 17.5)
        #expect(segments.first?.start == 1.2)
        #expect(segments.last?.end == 17.5)
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(segments.dropFirst().allSatisfy { keyframes.contains($0.start) })
        #expect(segments.allSatisfy { $0.end - $0.start <= 6 })
    }

    @Test func aLongGroupOfPicturesIsCutBetweenKeyframesRatherThanExceedTheLimit() {
        let segments = SegmentPlanner(maxSeconds: 5).segments(keyframes: [0], from: 0, to: 20)
        #expect(segments.map(\.start) == [0, 5, 10, 15])
        #expect(segments.allSatisfy { $0.end - $0.start == 5 })
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
            #expect((fewest...fewest + 2).contains(segments.count), "\(segments.count) segments, \(fewest) at the fewest")
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
