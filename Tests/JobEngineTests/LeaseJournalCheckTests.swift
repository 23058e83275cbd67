import Foundation
import JobEngine
import JobStoreConformance
import Testing

/// The checker finds each broken promise in a journal made by hand.
struct LeaseJournalCheckTests {
    private let id = JobID.make()

    private func entry(_ event: JournalEntry.Event, _ chunk: Int, epoch: Int, output: String? = nil,
                       rescuedFrom: String? = nil, worker: String? = nil, afterClaim: String? = nil,
                       stored: Double? = nil) -> JournalEntry {
        var detail = ["chunk": String(chunk), "epoch": String(epoch)]
        detail["output"] = output
        detail["rescued_from"] = rescuedFrom
        detail["worker"] = worker
        detail["after_claim"] = afterClaim
        // Each writer stamps `at` by its own clock: an hour off here, which the check must not read.
        return JournalEntry(jobID: id, at: Date(timeIntervalSince1970: (stored ?? 0) - 3600), event: event, detail: detail,
                            storedAt: stored.map(Date.init(timeIntervalSince1970:)))
    }

    @Test func aRescueAndARefusedStaleCommitKeepEveryPromise() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1), entry(.claimed, 0, epoch: 2, rescuedFrom: "a"),
            entry(.commitRefused, 0, epoch: 1, output: "c0.1"), entry(.checkpoint, 0, epoch: 2, output: "c0.2"),
        ], chunkKeys: [0: "c0"])
        #expect(check.violations == [])
        #expect(check.refusedCommits == 1)
        #expect(check.rescues == 1)
    }

    @Test func aCommitFromAnEpochThatLostItsLeaseIsAViolation() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1), entry(.claimed, 0, epoch: 2, rescuedFrom: "a"),
            entry(.checkpoint, 0, epoch: 1, output: "c0.1"),
        ], chunkKeys: [0: "c0"])
        #expect(check.violations == ["chunk 0 was committed under epoch 1 after its lease passed to epoch 2"])
    }

    @Test func aChunkCommittedTwiceOrNeverIsAViolation() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1), entry(.checkpoint, 0, epoch: 1, output: "c0.1"),
            entry(.checkpoint, 0, epoch: 1, output: "c0.1"),
        ], chunkKeys: [0: "c0", 1: "c1"])
        #expect(check.violations == ["chunk 0 was committed 2 times", "chunk 1 was committed 0 times"])
    }

    @Test func anOutputNotNamedByItsCommitsEpochIsAViolation() {
        let check = LeaseJournalCheck([entry(.claimed, 0, epoch: 3), entry(.checkpoint, 0, epoch: 3, output: "c0.2")],
                                      chunkKeys: [0: "c0"])
        #expect(check.violations == ["chunk 0's commit under epoch 3 recorded output c0.2"])
    }

    /// Worker a claims chunk 0 at 100 s (the store's clock); its lease runs out and b rescues the
    /// chunk at 102 s and commits it. a's stop, 4.5 s after its claim's answer, is 2.5 s after the
    /// rescue, and its refused commit 3 s after: past the 1 s rescue interval, both.
    @Test func aStaleWorkerStillRunningPastItsChunksRescueOverruns() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1, worker: "a", stored: 100),
            entry(.claimed, 0, epoch: 2, rescuedFrom: "a", worker: "b", stored: 102),
            entry(.checkpoint, 0, epoch: 2, output: "c0.2", worker: "b", stored: 102.5),
            entry(.commitRefused, 0, epoch: 1, output: "c0.1", worker: "a", stored: 105),
            entry(.fenced, 0, epoch: 1, worker: "a", afterClaim: "4.500", stored: 106),
        ], chunkKeys: [0: "c0"])
        #expect(check.violations == [])
        #expect(check.overruns == [
            LeaseJournalCheck.Overrun(chunk: 0, epoch: "1", worker: "a", secondsPastRescue: 3),
            LeaseJournalCheck.Overrun(chunk: 0, epoch: "1", worker: "a", secondsPastRescue: 2.5),
        ])
        #expect(check.overruns.first?.description == "chunk 0's epoch 1 (worker a) was still running 3.00 s after another claim rescued the chunk")
    }

    /// The same, but a stopped 1.9 s after its claim's answer (before the rescue at 2 s) and its
    /// refused commit came 0.5 s after the rescue: within the interval. The fence's entry, written
    /// late (a partition), counts by the stop it reports, not by when the store took it.
    @Test func aStaleWorkerThatStoppedByItsChunksRescueDoesNotOverrun() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1, worker: "a", stored: 100),
            entry(.claimed, 0, epoch: 2, rescuedFrom: "a", worker: "b", stored: 102),
            entry(.commitRefused, 0, epoch: 1, output: "c0.1", worker: "a", stored: 102.5),
            entry(.checkpoint, 0, epoch: 2, output: "c0.2", worker: "b", stored: 103),
            entry(.fenced, 0, epoch: 1, worker: "a", afterClaim: "1.900", stored: 160),
        ], chunkKeys: [0: "c0"])
        #expect(check.violations == [])
        #expect(check.overruns == [])
        #expect(LeaseJournalCheck(check: [
            entry(.claimed, 0, epoch: 1, worker: "a", stored: 100),
            entry(.claimed, 0, epoch: 2, rescuedFrom: "a", worker: "b", stored: 102),
            entry(.fenced, 0, epoch: 1, worker: "a", afterClaim: "2.500", stored: 160),
        ]).overruns.map(\.secondsPastRescue) == [0.5], "a tighter interval than the default finds it")
    }

    /// Entries a store did not stamp (an older store's, the in-memory store's) are not judged.
    @Test func entriesWithoutTheStoresTimeAreNotJudged() {
        let check = LeaseJournalCheck([
            entry(.claimed, 0, epoch: 1, worker: "a"), entry(.claimed, 0, epoch: 2, rescuedFrom: "a", worker: "b"),
            entry(.checkpoint, 0, epoch: 2, output: "c0.2"), entry(.fenced, 0, epoch: 1, worker: "a", afterClaim: "60"),
        ], chunkKeys: [0: "c0"])
        #expect(check.violations == [])
        #expect(check.overruns == [])
    }
}

extension LeaseJournalCheck {
    /// A check of chunk 0 (key `c0`) with a rescue interval of 0.2 s, an idle worker's wait alone.
    fileprivate init(check journal: [JournalEntry]) {
        self.init(journal, chunkKeys: [0: "c0"], rescueInterval: .milliseconds(200))
    }
}
