import EngineTestKit
import Foundation
import Testing
import TaskContract


struct CostBarTests {
    @Test func newBarStartsEmpty() {
        #expect(CostBar().fraction == 0)
    }

    @Test func storedFractionIsClampedIntoZeroToOne() {
        #expect(CostBar(fraction: -0.5).fraction == 0)
        #expect(CostBar(fraction: 1.5).fraction == 1)
        #expect(CostBar(fraction: 0.4).fraction == 0.4)
    }

    @Test(arguments: [1, 2, 3, 42, 0xDEAD_BEEF] as [UInt64])
    func randomCostsNeverMoveTheBarBackNorPastTheCapWhileWorkIsOwed(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let units = Int.random(in: 5...200, using: &random)
        var bar = CostBar()
        for unit in 0..<units {
            let before = bar.fraction
            let unitsLeft = units - unit - 1
            let remaining = unitsLeft == 0 ? 0 : Double.random(in: 0...10, using: &random) * Double(unitsLeft)
            bar.advance(done: Double.random(in: 0...5, using: &random), remaining: remaining)
            #expect(bar.fraction >= before)
            #expect(bar.fraction <= CostBar.cap)
            #expect(bar.fraction < 1)
        }
        bar.complete()
        #expect(bar.fraction == 1)
    }

    @Test func barMovesWheneverWorkLandsAndSomethingIsStillOwed() {
        var bar = CostBar()
        for _ in 0..<50 {
            let before = bar.fraction
            bar.advance(done: 1, remaining: 20)
            #expect(bar.fraction > before)
        }
    }

    @Test func workThatCostNothingLeavesTheBarWhereItIs() {
        var bar = CostBar(fraction: 0.3)
        bar.advance(done: 0, remaining: 10)
        #expect(bar.fraction == 0.3)
        bar.advance(done: -4, remaining: 10)
        #expect(bar.fraction == 0.3)
    }

    @Test func lateLearnedTotalNeverMovesTheBarBackwards() {
        var bar = CostBar()
        var history: [Double] = []
        for unitsLeft in stride(from: 9, through: 5, by: -1) {
            bar.advance(done: 1, remaining: Double(unitsLeft))
            history.append(bar.fraction)
        }
        // Halfway through, the job learns it owes a hundred times more than it thought.
        for unitsLeft in stride(from: 999, through: 990, by: -1) {
            let before = bar.fraction
            bar.advance(done: 1, remaining: Double(unitsLeft))
            #expect(bar.fraction > before)
            history.append(bar.fraction)
        }
        #expect(history == history.sorted())
        #expect(bar.fraction < CostBar.cap)
    }

    @Test func accurateEstimatesGiveAnEvenMonotoneBarEndingAtTheCap() {
        let units = 40
        var bar = CostBar()
        var previous = 0.0
        for done in 1...units {
            bar.advance(done: 1, remaining: Double(units - done))
            #expect(bar.fraction > previous)
            #expect(abs(bar.fraction - CostBar.cap * Double(done) / Double(units)) < 1e-9)
            previous = bar.fraction
        }
        #expect(bar.fraction == CostBar.cap)
        bar.complete()
        #expect(bar.fraction == 1)
    }

    @Test func barOnlyReachesOneThroughComplete() {
        var bar = CostBar()
        bar.advance(done: 1_000_000, remaining: 0)
        #expect(bar.fraction == CostBar.cap)
        bar.advance(done: 1, remaining: 0)
        #expect(bar.fraction == CostBar.cap)
        bar.complete()
        #expect(bar.fraction == 1)
        bar.advance(done: 1, remaining: 5)
        #expect(bar.fraction == 1)
    }

    @Test func barRebuiltFromAStoredFractionContinuesFromThere() {
        var original = CostBar()
        for unitsLeft in stride(from: 9, through: 6, by: -1) {
            original.advance(done: 1, remaining: Double(unitsLeft))
        }
        var resumed = CostBar(fraction: original.fraction)
        #expect(resumed == original)
        for unitsLeft in stride(from: 5, through: 0, by: -1) {
            original.advance(done: 1, remaining: Double(unitsLeft))
            resumed.advance(done: 1, remaining: Double(unitsLeft))
            #expect(resumed.fraction == original.fraction)
        }
        #expect(resumed.fraction == CostBar.cap)
    }

    @Test func progressSnapshotJSONRoundTripResumesTheBarExactly() throws {
        var snapshot = ProgressSnapshot(unitsTotal: 10, costs: UnitCostModel(seeds: [.render: 2, .encode: 3]))
        var random = SplitMix64(seed: 7)
        for unit in 1...4 {
            snapshot.bar.advance(done: Double.random(in: 0.5...3, using: &random), remaining: Double(10 - unit) * 2.5)
            snapshot.unitsDone = unit
        }
        snapshot.stage = .encode
        snapshot.etaSeconds = 12.5
        snapshot.workedSeconds = 33.25
        let stored = try JSONEncoder().encode(snapshot)
        var resumed = try JSONDecoder().decode(ProgressSnapshot.self, from: stored)
        #expect(resumed == snapshot)
        #expect(resumed.fraction == snapshot.fraction)

        let before = resumed.fraction
        resumed.bar.advance(done: 1, remaining: 5)
        snapshot.bar.advance(done: 1, remaining: 5)
        #expect(resumed.fraction > before)
        #expect(resumed.fraction == snapshot.fraction)
    }

    @Test func newSnapshotHasNothingDone() {
        let snapshot = ProgressSnapshot(unitsTotal: 7, costs: UnitCostModel())
        #expect(snapshot.fraction == 0)
        #expect(snapshot.unitsDone == 0)
        #expect(snapshot.unitsTotal == 7)
        #expect(snapshot.stage == nil)
        #expect(snapshot.etaSeconds == nil)
        #expect(snapshot.workedSeconds == 0)
    }

    @Test func notANumberCostDoesNotJumpTheBarToTheCap() {
        var done = CostBar(fraction: 0.2)
        var remaining = CostBar(fraction: 0.2)
        done.advance(done: .nan, remaining: 10)
        #expect(done.fraction == 0.2)
        remaining.advance(done: 1, remaining: .nan)
        #expect(remaining.fraction < CostBar.cap)
    }
}
