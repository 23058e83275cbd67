import FFmpeg
@testable import MediaJobs
@testable import PhotoJobs
import Testing

@Suite struct EncoderBudgetTests {
    @Test func aVeryfast1080pEncoderCountsSixteenInputAndThreeReferencePictures() {
        let footprint = EncoderFootprint(encoding: VideoEncoding(preset: "veryfast"), width: 1920, height: 1080)
        #expect(footprint.inputPictures == 16) // lookahead 10 + 3 B-frames + 3
        #expect(footprint.referencePictures == 3) // 1 reference + 2
        // 2,073,600 px × (16 × 2.9 + 3 × 5) = 127,319,040; decoder 2,073,600 × 1.5 × 6 = 18,662,400;
        // fixed 8 MiB = 8,388,608.
        #expect(footprint.bytes == 154_370_048)
    }

    @Test func anUltrafastEncoderHasNoLookahead() {
        let footprint = EncoderFootprint(encoding: VideoEncoding(preset: "ultrafast"), width: 1280, height: 720)
        #expect(footprint.inputPictures == 3)
        // 921,600 px × (3 × 2.9 + 3 × 5) = 21,841,920; decoder 8,294,400; fixed 8,388,608.
        #expect(footprint.bytes == 38_524_928)
    }

    @Test func otherEncodersCountDoubleAndAnUnknownPresetCountsAsMedium() {
        let x265 = EncoderFootprint(encoding: VideoEncoding(codec: "libx265", preset: "medium"), width: 1920, height: 1080)
        // 2,073,600 × (46 × 2.9 + 5 × 5) = 328,458,240, doubled; decoder and fixed as above.
        #expect(x265.bytes == 683_967_488)
        let unknown = EncoderFootprint(encoding: VideoEncoding(codec: "libx265", preset: "no-such"), width: 1920, height: 1080)
        #expect(unknown == x265)
    }

    @Test func halfOfUsableMemoryHoldsAWholeNumberOfEncodersAndAtLeastOne() {
        let budget = EncoderBudget.half(of: 1 << 30)
        #expect(budget.bytes == 512 << 20)
        #expect(budget.encodersAtOnce(footprint: 154_370_048) == 3) // 536,870,912 / 154,370,048 = 3.48
        #expect(budget.encodersAtOnce(footprint: 600 << 20) == 1)
        #expect(EncoderBudget.unlimited().encodersAtOnce(footprint: 154_370_048) > 1000)
    }

    @Test func anEncoderThatFitsBesideTheRunningOneRunsAtOnce() {
        let budget = EncoderBudget(bytes: 100)
        let ran = budget.whenAvailable(40, shouldStop: { false }) {
            budget.whenAvailable(60, shouldStop: { false }) { true }
        }
        #expect(ran == true)
        #expect(budget.mostAtOnce == 2)
    }

    @Test func anEncoderThatDoesNotFitWaitsAndAStopEndsTheWaitWithoutRunningIt() {
        let budget = EncoderBudget(bytes: 100)
        var asked = 0
        let ran = budget.whenAvailable(60, shouldStop: { false }) {
            budget.whenAvailable(41, shouldStop: { asked += 1; return asked == 3 }) { true }
        }
        #expect(ran == .some(nil))
        #expect(asked == 3)
        #expect(budget.mostAtOnce == 1)
    }

    @Test func anEncoderThatMustWaitSaysSoOnceWithHowManyHoldTheBudget() {
        let budget = EncoderBudget(bytes: 100)
        var waits: [Int] = [], asked = 0
        _ = budget.whenAvailable(60, shouldStop: { false }, waits: { waits.append($0) }) {
            budget.whenAvailable(41, shouldStop: { asked += 1; return asked == 3 }, waits: { waits.append($0) }) { true }
        }
        #expect(waits == [1], "only the second encoder waited, once, beside one running")
    }

    @Test func anEncoderLargerThanTheWholeBudgetRunsAlone() {
        let budget = EncoderBudget(bytes: 100)
        #expect(budget.whenAvailable(1_000, shouldStop: { false }) { "ran" } == "ran")
        // Its bytes were given back: a full-budget encoder runs without waiting.
        #expect(budget.whenAvailable(100, shouldStop: { true }) { "ran again" } == "ran again")
    }
}
