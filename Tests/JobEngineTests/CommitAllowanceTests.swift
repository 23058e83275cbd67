import JobEngine
import Testing

/// How many commits wait for a worker's committer: by count and by the work their chunks hold.
struct CommitAllowanceTests {
    @Test func chunksThatCostNothingWaitUpToTheMostOfTheirSlots() {
        let allowance = CommitAllowance(slots: 1)
        #expect(allowance.most == 16)
        #expect(allowance.admits(cost: 0, beside: 15, costing: 0))
        #expect(!allowance.admits(cost: 0, beside: 16, costing: 0))
    }

    @Test func shortChunksWaitWhileTheirWorkFitsTheAllowance() {
        let allowance = CommitAllowance(slots: 1, work: .seconds(1))
        #expect(allowance.admits(cost: 0.25, beside: 3, costing: 0.75))
        #expect(!allowance.admits(cost: 0.25, beside: 4, costing: 1.0))
        #expect(!allowance.admits(cost: 0.5, beside: 3, costing: 0.75))
    }

    @Test func longChunksStillWaitTwoASlot() {
        let allowance = CommitAllowance(slots: 2, work: .seconds(1))
        #expect(allowance.always == 4)
        #expect(allowance.admits(cost: 5, beside: 3, costing: 15))
        #expect(!allowance.admits(cost: 5, beside: 4, costing: 20))
    }

    @Test func theAllowanceGrowsWithTheSlots() {
        let one = CommitAllowance(slots: 1), four = CommitAllowance(slots: 4)
        #expect(four.always == 4 * one.always)
        #expect(four.most == 4 * one.most)
        #expect(CommitAllowance(slots: 0) == one, "a worker has at least one slot")
    }

    @Test func aNegativeCostCountsAsNothing() {
        let allowance = CommitAllowance(slots: 1, work: .seconds(1))
        #expect(!allowance.admits(cost: -5, beside: 2, costing: 1.5))
        #expect(allowance.admits(cost: -5, beside: 2, costing: 1.0))
    }
}
