@testable import MediaJobs
import Testing

@Suite struct SegmentPlannerTests {
    private let everySecond = (0..<60).map(Double.init)

    @Test func aThirtySecondClipOnTwoWorkersMakesTwoHalves() {
        let segments = SegmentPlanner(parallelism: 2).segments(keyframes: everySecond, from: 0, to: 30)
        #expect(segments.map(\.start) == [0, 15])
        #expect(segments.map(\.end) == [15, 30])
    }

    @Test func longClipsGetAMultipleOfTheWorkersAboutTheTargetLong() {
        let keyframes = (0..<300).map(Double.init)
        let segments = SegmentPlanner(parallelism: 2).segments(keyframes: keyframes, from: 0, to: 150)
        #expect(segments.count == 6)
        #expect(segments.allSatisfy { $0.end - $0.start == 25 })
    }

    @Test func cutsFallOnKeyframesAndTheSegmentsCoverTheRangeWithoutGaps() {
        let keyframes: [Double] = [0, 2.5, 7.1, 9.9, 13.3, 16.0]
        let segments = SegmentPlanner(parallelism: 4).segments(keyframes: keyframes, from: 1.2, to: 17.5)
        #expect(segments.first?.start == 1.2)
        #expect(segments.last?.end == 17.5)
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(segments.dropFirst().allSatisfy { keyframes.contains($0.start) })
    }

    @Test func aClipWithOneKeyframeIsOneSegment() {
        let segments = SegmentPlanner(parallelism: 2).segments(keyframes: [0], from: 0, to: 20)
        #expect(segments.count == 1)
        #expect(segments[0] == (start: 0, end: 20))
    }

    @Test func aShortClipIsNotCutIntoSlivers() {
        let segments = SegmentPlanner(parallelism: 8).segments(keyframes: everySecond, from: 0, to: 3)
        #expect(segments.count == 3)
        #expect(segments.allSatisfy { $0.end - $0.start >= 1 })
    }

    @Test func anEmptyRangeHasNoSegments() {
        #expect(SegmentPlanner(parallelism: 2).segments(keyframes: everySecond, from: 5, to: 5).isEmpty)
    }
}
