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
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, finalizeWork: 10, costs: costs),
                                      chunks: chunks([(.render, 4), (.encode, 3)]))
        // 4 units of render took 4 s (1 s per unit against the seeded 0.5), 2 s into the run.
        tracker.chunkDone(0, cost: 4, elapsed: 2)
        let snapshot = tracker.snapshot
        // (0.7 · 4 · 0.5 + 0.3 · 4) / (0.7 · 4 + 0.3 · 4) = 2.6 / 4.
        #expect(abs(snapshot.costs.estimate(for: .render) - 0.65) < 1e-12)
        // Owed after it: 2 · 3 + 0.1 · 10 = 7 s; the bar moves by 4 / (4 + 7) of the way to the cap.
        #expect(abs(snapshot.fraction - CostBar.cap * 4 / 11) < 1e-12)
        // Two chunks ran at once: 4 s of work in 2 s, so the 7 s owed take 3.5 s.
        #expect(abs(snapshot.etaSeconds! - 3.5) < 1e-12)
        #expect(snapshot.unitsDone == 1)
        #expect(snapshot.stage == .render)
    }

    @Test func aSmallChunkFinishingFirstDoesNotMakeTheRestLookCheap() {
        // The first job of a kind: a tiny chunk (an audio track) lands before two large ones.
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 3, finalizeWork: 1, costs: costs),
                                      chunks: chunks([(.encode, 0.01), (.encode, 5), (.encode, 5)]))
        tracker.chunkDone(0, cost: 0.01, elapsed: 0.01)
        // Per chunk, the tiny one would have made each large chunk cost 0.01 s; per unit of work
        // it costs 1 s per unit against 2: (0.7 · 0.01 · 2 + 0.3 · 0.01) / 0.01 = 1.7.
        #expect(abs(tracker.snapshot.costs.estimate(for: .encode) - 1.7) < 1e-12)
        #expect(abs(tracker.remainingCost - (1.7 * 10 + 0.1)) < 1e-9)
    }

    @Test func onAKindsFirstJobAnUncostedFinalisationLetsTheBarReachTheCapWithTheLastChunk() {
        // No defaults and no history: chunks start at the 1 s fallback, the finalisation at nothing.
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, finalizeWork: 1, costs: UnitCostModel()),
                                      chunks: chunks([(.render, 1), (.render, 1)]))
        tracker.chunkDone(0, cost: 0.2, elapsed: 0.2)
        // Owed after it: the other chunk at the 0.2 s just measured, and no finalisation.
        #expect(abs(tracker.snapshot.fraction - CostBar.cap * 0.2 / 0.4) < 1e-12)
        tracker.chunkDone(1, cost: 0.2, elapsed: 0.4)
        #expect(abs(tracker.snapshot.fraction - CostBar.cap) < 1e-12)
        tracker.finished(finalizeCost: 0.05, elapsed: 0.45)
        // What it took is the package stage's rate from now on (kept as the kind's history).
        #expect(tracker.snapshot.costs.estimate(for: .package) == 0.05)
    }

    @Test func theFinalisationLearnsItsRateFromTheWorkTheKindStated() {
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 1, finalizeWork: 40, costs: costs),
                                      chunks: chunks([(.encode, 2)]))
        tracker.chunkDone(0, cost: 4, elapsed: 4)
        // Owed: the finalisation alone, 0.1 · 40 = 4 s: the bar stops halfway to the cap, not near it.
        #expect(abs(tracker.snapshot.fraction - CostBar.cap * 4 / 8) < 1e-12)
        tracker.finished(finalizeCost: 2, elapsed: 6)
        // Its 40 units took 2 s: 0.05 s per unit (the seed weighs as much as this finalisation).
        #expect(abs(tracker.snapshot.costs.estimate(for: .package) - (0.7 * 0.1 + 0.3 * 0.05)) < 1e-12)
        #expect(tracker.snapshot.fraction == 1)
        #expect(tracker.snapshot.etaSeconds == 0)
    }

    @Test func aChunkReportedTwiceCountsOnce() {
        var tracker = ProgressTracker(snapshot: ProgressSnapshot(unitsTotal: 2, costs: costs),
                                      chunks: chunks([(.render, 1), (.render, 1)]))
        tracker.chunkDone(0, cost: 1, elapsed: 1)
        let once = tracker.snapshot
        tracker.chunkDone(0, cost: 1, elapsed: 2)
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
