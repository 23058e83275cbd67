import Foundation
@testable import JobEngine
import TaskContract
import Testing

/// The tracker's arithmetic, with hand-computed values: chunks costed by their work, the
/// finalisation by the work the kind stated for it.
struct ProgressTrackerTests {
    /// Seeds: render 0.5 s, encode 2 s, package 0.1 s per unit of work.
    private let costs = UnitCostModel(seeds: [.render: 0.5, .encode: 2, .package: 0.1])

    private func chunks(_ plans: [(Stage, Double)], done: Set<Int> = []) -> [ChunkRecord] {
        plans.enumerated().map { index, plan in
            ChunkRecord(index: index, plan: PlannedChunk(key: "c\(index)", stage: plan.0, work: plan.1),
                        isDone: done.contains(index))
        }
    }

    @Test func whatIsOwedIsEachChunksWorkAtItsStagesRateAndTheFinalisationsWork() {
        let records = chunks([(.render, 4), (.encode, 3), (.encode, 1)], done: [2])
        let tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 3, finalizeWork: 10, costs: costs),
                                      chunks: records)
        // 0.5 · 4 + 2 · 3 + 0.1 · 10 (the done chunk is not owed).
        #expect(tracker.remainingCost == 9)
    }

    @Test func aFinishedChunkTeachesItsStagesRateAndMovesTheBarByItsShare() {
        let records = chunks([(.render, 4), (.encode, 3)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, finalizeWork: 10, costs: costs),
                                      chunks: records)
        // 4 units of render took 4 s (1 s per unit against the seeded 0.5).
        tracker.chunkDone(OwedChunk(records[0]), cost: 4, elapsed: 4)
        let snapshot = tracker.snapshot
        // (0.7 · 4 · 0.5 + 0.3 · 4) / (0.7 · 4 + 0.3 · 4) = 2.6 / 4.
        #expect(abs(snapshot.costs.estimate(for: .render) - 0.65) < 1e-12)
        // The chunk took twice what its starting rate said, so the stages not run yet are expected
        // twice as slow: owed 2 · 3 · 2 + 0.1 · 10 · 2 = 14 s; the bar moves by 4 / (4 + 14) of the way.
        #expect(tracker.speedFactor == 2)
        #expect(abs(snapshot.fraction - CostBar.cap * 4 / 18) < 1e-12)
        // One chunk at a time: the encode chunk, then the finalisation.
        #expect(abs(snapshot.etaSeconds! - 14) < 1e-12)
        #expect(snapshot.unitsDone == 1)
        #expect(snapshot.stage == .render)
    }

    @Test func theTimeLeftLaysTheOwedChunksOutOnTheChunksAtOnceThenAddsTheFinalisation() {
        let records = chunks([(.render, 4), (.encode, 1), (.encode, 1), (.encode, 1), (.encode, 0.5)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 5, finalizeWork: 10, costs: costs),
                                      chunks: records,
                                      chunksAtOnce: 2)
        // As its starting rate said (0.5 · 4 = 2 s): nothing to scale.
        tracker.chunkDone(OwedChunk(records[0]), cost: 2, elapsed: 2)
        #expect(tracker.speedFactor == 1)
        // Encode chunks of 2, 2, 2 and 1 s on two workers, each taking the next as it frees:
        // [2, 0] → [2, 2] → [4, 2] → [4, 3]; the last ends at 4 s, then the finalisation, 0.1 · 10.
        #expect(abs(tracker.snapshot.etaSeconds! - 5) < 1e-12)
        // On one worker the bar's weight of what is left: 7 s and the finalisation.
        #expect(abs(tracker.remainingCost - 8) < 1e-12)
    }

    @Test func aStageNotRunYetIsScaledByHowThisRunsChunksComparedWithTheirStartingCosts() {
        let records = chunks([(.render, 2), (.render, 2), (.encode, 1)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 3, costs: costs),
                                      chunks: records)
        tracker.chunkDone(OwedChunk(records[0]), cost: 3, elapsed: 3)
        #expect(tracker.speedFactor == 3, "3 s where 0.5 · 2 = 1 s was expected")
        tracker.chunkDone(OwedChunk(records[1]), cost: 1, elapsed: 4)
        #expect(tracker.speedFactor == 2, "4 s where 2 s was expected, over both chunks")
        // Render is learned: (0.7 · 2 · 0.5 + 0.3 · 3) / 2 = 0.8, then (0.7 · 2 · 0.8 + 0.3 · 1) / 2 = 0.71.
        #expect(abs(tracker.snapshot.costs.estimate(for: .render) - 0.71) < 1e-12)
        #expect(abs(tracker.expectedCost(of: 2, in: .render) - 1.42) < 1e-12, "a learned stage keeps its own rate")
        // Encode and package have not run: 2 · 1 · 2, then 0.1 · 1 · 2.
        #expect(abs(tracker.snapshot.etaSeconds! - 4.2) < 1e-12)
    }

    @Test func aSmallChunkFinishingFirstDoesNotMakeTheRestLookCheap() {
        // The first job of a kind: a tiny chunk (an audio track) lands before two large ones.
        let records = chunks([(.encode, 0.01), (.encode, 5), (.encode, 5)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 3, finalizeWork: 1, costs: costs),
                                      chunks: records)
        tracker.chunkDone(OwedChunk(records[0]), cost: 0.01, elapsed: 0.01)
        // Per chunk, the tiny one would have made each large chunk cost 0.01 s; per unit of work
        // it costs 1 s per unit against 2: (0.7 · 0.01 · 2 + 0.3 · 0.01) / 0.01 = 1.7.
        #expect(abs(tracker.snapshot.costs.estimate(for: .encode) - 1.7) < 1e-12)
        // The tiny chunk took half its starting cost, so the finalisation, not run yet, is expected at half.
        #expect(abs(tracker.remainingCost - (1.7 * 10 + 0.1 * 0.5)) < 1e-9)
    }

    @Test func onAKindsFirstJobAnUncostedFinalisationLetsTheBarReachTheCapWithTheLastChunk() {
        // No defaults and no history: chunks start at the 1 s fallback, the finalisation at nothing.
        let records = chunks([(.render, 1), (.render, 1)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, finalizeWork: 1, costs: UnitCostModel()),
                                      chunks: records)
        tracker.chunkDone(OwedChunk(records[0]), cost: 0.2, elapsed: 0.2)
        // Owed after it: the other chunk at the 0.2 s just measured, and no finalisation.
        #expect(abs(tracker.snapshot.fraction - CostBar.cap * 0.2 / 0.4) < 1e-12)
        tracker.chunkDone(OwedChunk(records[1]), cost: 0.2, elapsed: 0.4)
        #expect(abs(tracker.snapshot.fraction - CostBar.cap) < 1e-12)
        tracker.finished(finalizeCost: 0.05, elapsed: 0.45)
        // What it took is the package stage's rate from now on (kept as the kind's history).
        #expect(tracker.snapshot.costs.estimate(for: .package) == 0.05)
    }

    @Test func theFinalisationLearnsItsRateFromTheWorkTheKindStated() {
        let records = chunks([(.encode, 2)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 1, finalizeWork: 40, costs: costs),
                                      chunks: records)
        tracker.chunkDone(OwedChunk(records[0]), cost: 4, elapsed: 4)
        // Owed: the finalisation alone, 0.1 · 40 = 4 s: the bar stops halfway to the cap, not near it.
        #expect(abs(tracker.snapshot.fraction - CostBar.cap * 4 / 8) < 1e-12)
        tracker.finished(finalizeCost: 2, elapsed: 6)
        // Its 40 units took 2 s: 0.05 s per unit (the seed weighs as much as this finalisation).
        #expect(abs(tracker.snapshot.costs.estimate(for: .package) - (0.7 * 0.1 + 0.3 * 0.05)) < 1e-12)
        #expect(tracker.snapshot.fraction == 1)
        #expect(tracker.snapshot.etaSeconds == 0)
    }

    @Test func whatIsOwedShrinksByEachLandedChunksWorkAndAFinishedStageOwesExactlyNothing() {
        // No finalisation cost, so that nothing hides a remainder; work whose sum is not exact in
        // binary: 0.1 + 0.2 − 0.1 − 0.2 leaves 5.6e-17.
        let records = chunks([(.render, 0.1), (.render, 0.2), (.encode, 3)])
        var tracker = ProgressTracker(
            snapshot: ProgressSnapshot(unitsTotal: 3, costs: UnitCostModel(seeds: [.render: 0.5, .encode: 2])),
            chunks: records)
        tracker.chunkDone(OwedChunk(records[2]), cost: 6, elapsed: 6)
        // Owed: the two render chunks, 0.5 · (0.1 + 0.2).
        #expect(abs(tracker.remainingCost - 0.15) < 1e-12)
        tracker.chunkDone(OwedChunk(records[0]), cost: 0.05, elapsed: 6.05)
        #expect(abs(tracker.remainingCost - 0.5 * 0.2) < 1e-12)
        tracker.chunkDone(OwedChunk(records[1]), cost: 0.1, elapsed: 6.15)
        #expect(tracker.remainingCost == 0)
        #expect(tracker.snapshot.etaSeconds == 0)
    }

    @Test(arguments: [1, 2])
    func theSnapshotAfterAChunkIsWhatAccountingForItGivesAndMovesNothingBeforeThen(chunksAtOnce: Int) throws {
        let records = chunks([(.render, 4), (.encode, 3), (.encode, 1)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 3, finalizeWork: 10, costs: costs),
                                      chunks: records, chunksAtOnce: chunksAtOnce)
        let before = tracker.snapshot
        let next = try #require(tracker.snapshots(after: [(OwedChunk(records[0]), 4)], elapsed: 4).first)
        // Not accounted for yet: the checkpoint holding it is not durable.
        #expect(tracker.snapshot == before)
        #expect(tracker.speedFactor == 1)
        #expect(tracker.remainingCost == 11)  // 0.5 · 4 + 2 · (3 + 1) + 0.1 · 10
        // Twice as slow as seeded: owed 2 · 4 · 2 + 0.1 · 10 · 2 = 18 s; the bar moves by 4 / 22.
        #expect(abs(next.fraction - CostBar.cap * 4 / 22) < 1e-12)
        tracker.chunkDone(OwedChunk(records[0]), cost: 4, elapsed: 4)
        #expect(tracker.snapshot == next)
        #expect(tracker.snapshots(after: [(OwedChunk(records[0]), 4)], elapsed: 5) == [next],
                "a chunk no longer owed changes nothing")
    }

    @Test(arguments: [1, 2])
    func chunksLandingTogetherGiveTheSnapshotsOfAccountingForThemOneAfterAnother(chunksAtOnce: Int) {
        let records = chunks([(.render, 4), (.encode, 3), (.encode, 1), (.render, 2)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 4, finalizeWork: 10, costs: costs),
                                      chunks: records, chunksAtOnce: chunksAtOnce)
        let before = tracker.snapshot
        let together = tracker.snapshots(after: [(OwedChunk(records[2]), 1.5), (OwedChunk(records[0]), 3)], elapsed: 6)
        #expect(tracker.snapshot == before, "nothing is accounted for before the checkpoint is durable")
        tracker.chunkDone(OwedChunk(records[2]), cost: 1.5, elapsed: 6)
        let afterFirst = tracker.snapshot
        tracker.chunkDone(OwedChunk(records[0]), cost: 3, elapsed: 6)
        #expect(together == [afterFirst, tracker.snapshot])
        #expect(together.map(\.unitsDone) == [1, 2])
    }

    @Test func inALongJobTheChunksBeforeTheLastOnesAreSpreadEvenlyAndTheLastOnesLaidOutOneByOne() {
        // 356 encode chunks of 2 s on two workers; the last 256 in run order are laid out one by one.
        let laidOut = ProgressTracker.laidOutChunks, count = laidOut + 100
        #expect(laidOut == 256)
        let owed = (0..<count).map { OwedChunk(index: $0, stage: .encode, work: 1) }
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: count, finalizeWork: 10, costs: costs),
                                      owed: owed, chunksAtOnce: 2)
        tracker.chunkDone(owed[0], cost: 2, elapsed: 2)
        // The 99 chunks before the last 256 spread evenly: 99 s on each worker; the last ones
        // alternate, 128 · 2 s each: 355 s, then the finalisation, 0.1 · 10. Laid out one by one,
        // the 355 chunks would end at 178 · 2 s: the estimate is within one chunk of that.
        #expect(abs(tracker.snapshot.etaSeconds! - 356) < 1e-9)
        for index in 1..<(count - laidOut) { tracker.chunkDone(owed[index], cost: 2, elapsed: 2 * Double(index + 1)) }
        // Only the last 256 are owed: 128 · 2 s on each worker, then the finalisation.
        #expect(abs(tracker.snapshot.etaSeconds! - 257) < 1e-9)
        #expect(abs(tracker.secondsLeft - 257) < 1e-9)
    }

    @Test func aChunkReportedTwiceCountsOnce() {
        let records = chunks([(.render, 1), (.render, 1)])
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, costs: costs),
                                      chunks: records)
        tracker.chunkDone(OwedChunk(records[0]), cost: 1, elapsed: 1)
        let once = tracker.snapshot
        tracker.chunkDone(OwedChunk(records[0]), cost: 1, elapsed: 2)
        #expect(tracker.snapshot == once)
    }

    @Test func aChunkPlannedBeforeChunksStatedTheirWorkIsOneUnit() throws {
        let stored = Data(#"{"key":"segment-0","stage":"encode"}"#.utf8)
        let chunk = try JSONDecoder().decode(PlannedChunk.self, from: stored)
        #expect(chunk == PlannedChunk(key: "segment-0", stage: .encode, work: 1))
        let snapshot = try JSONDecoder().decode(ProgressSnapshot.self, from: Data(#"""
            {"bar":{"fraction":0.5},"unitsDone":1,"unitsTotal":2,"costs":{"estimates":{},"fallback":1},"workedSeconds":3}
            """#.utf8))
        #expect(snapshot.finalizeWork == 1)
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func workThatIsNotAPositiveAmountCountsAsOneUnit(_ work: Double) {
        #expect(PlannedChunk(key: "k", stage: .render, work: work).work == 1)
    }
}
