import JobEngine
import JobStoreConformance
import Testing

/// The checker finds each broken promise in a journal made by hand.
struct LeaseJournalCheckTests {
    private let id = JobID.make()

    private func entry(_ event: JournalEntry.Event, _ chunk: Int, epoch: Int, output: String? = nil,
                       rescuedFrom: String? = nil) -> JournalEntry {
        var detail = ["chunk": String(chunk), "epoch": String(epoch)]
        detail["output"] = output
        detail["rescued_from"] = rescuedFrom
        return JournalEntry(jobID: id, event: event, detail: detail)
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
}
