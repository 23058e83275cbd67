import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Testing

/// A lease call whose COMMIT reached the server but whose reply was lost with the connection runs
/// again on a remade connection (``PostgresJobStore/dropReplies(_:)``, as in ``LostReplyTests``):
/// it reports what its first run did, a claim takes no second chunk, and the journal keeps the
/// lease protocol's promises (``LeaseJournalCheck``).
struct LostLeaseReplyTests {
    @Test func aClaimWhoseReplyWasLostReturnsTheLeaseItTookAndNoSecondChunk() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 2), chunks: makeChunks(2))
            store.dropReplies(1)
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(lease.chunkIndex == 0 && lease.epoch == 1)
            #expect(try leasedChunks(schema) == [0], "the retry took no second chunk")
            #expect(try claims(of: job, in: store) == [lease.token], "one claim, the one returned")
            #expect(try store.renew(lease) == .renewed(cancelRequested: false))
            try finish(job, from: lease, in: store, chunkKeys: [0: "c0", 1: "c1"])
        }
    }

    @Test func aReleaseWhoseReplyWasLostSaysItReleased() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 1), chunks: makeChunks(1))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            store.dropReplies(1)
            #expect(try store.release(lease), "the release applied: its lease held the chunk")
            #expect(try store.journal(of: job.id).filter { $0.event == .released }.count == 1)
            #expect(try leasedChunks(schema) == [])
            #expect(try !store.release(lease), "a second release is a second call, and the lease is gone")
            let again = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(again.chunkIndex == 0 && again.attempt == 0, "given back, not expired")
            try finish(job, from: again, in: store, chunkKeys: [0: "c0"])
        }
    }

    @Test func aFailureForElsewhereWhoseReplyWasLostSaysItWasRecorded() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 1), chunks: makeChunks(1))
            let blind = try #require(try store.claimChunk(worker: "blind", lease: .seconds(60), job: job.id))
            store.dropReplies(1)
            #expect(try store.fail(blind, .elsewhere("on host h1: /shared/a.jpg cannot be read here")))
            #expect(try store.journal(of: job.id).filter { $0.event == .chunkFailed }.count == 1)
            let other = try #require(try store.claimChunk(worker: "other", lease: .seconds(60), job: job.id))
            #expect(other.failures == 1, "one failure counted, not two")
            try finish(job, from: other, in: store, chunkKeys: [0: "c0"])
        }
    }

    @Test func aChunkSettledWithBadItemsWhoseReplyWasLostSaysItWasRecorded() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 2), chunks: makeChunks(2))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            let bad = ItemFailure(item: "assets[0] (a.jpg)", reason: "the file is truncated (on host h1)")
            store.dropReplies(1)
            #expect(try store.fail(lease, .badItems([bad], "on host h1: a.jpg is truncated")))
            #expect(try store.journal(of: job.id).filter { $0.event == .chunkFailed }.count == 1)
            #expect(try store.badItems(of: job.id)
                == [BadItem(item: bad.item, reason: bad.reason, outcome: .failed, chunkIndex: 0)])
            let next = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(next.chunkIndex == 1, "the settled chunk is not claimed again")
            try finish(job, from: next, in: store, chunkKeys: [1: "c1"])
        }
    }

    @Test func aJobsEndWhoseReplyWasLostSaysItEndedTheJob() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running, unitsTotal: 1), chunks: makeChunks(1))
            let chunk = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(try store.commit(chunk, checkpoint: done(chunk, of: job)) == .committed)
            let package = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(package.chunkIndex == ChunkLease.packageIndex)
            let failed = StateChange(state: .failed, failure: .invalidInput, message: "1 item is bad", clearsCancel: true)
            let ended = JournalEntry(jobID: job.id, event: .ended, detail: ["outcome": "failed"])
            store.dropReplies(1)
            #expect(try store.endJob(package, failed, journal: ended), "the job ended under the package's lease")
            #expect(try store.job(job.id)?.state == .failed)
            let tail = try store.journal(of: job.id).map(\.event).suffix(3)
            #expect(Array(tail) == [.claimed, .released, .ended], "released and ended once each")
            #expect(try leasedChunks(schema) == [])
            #expect(LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: [0: "c0"]).violations == [])
        }
    }

    @Test func aBatchWhoseReplyWasLostSaysWhatEachOfItsCommitsDidAndRecordsEachOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 3), chunks: makeChunks(3))
            let leases = try (0..<3).map { _ in try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id)) }
            #expect(try store.release(leases[1]))
            let taken = try #require(try schema.openStore().claimChunk(worker: "other", lease: .seconds(60), job: job.id))
            store.dropReplies(1)
            let answers = store.commit(leases.map { (lease: $0, checkpoint: done($0, of: job)) })
            #expect(answers.map { try? $0.get() } == [.committed, .refused, .committed],
                    "the run again found chunks 0 and 2 done with its outputs, and chunk 1 another worker's")
            let journal = try store.journal(of: job.id)
            let checkpoints = journal.filter { $0.event == .checkpoint }.compactMap { $0.detail["chunk"] }
            #expect(checkpoints.sorted() == ["0", "2"], "each committed once")
            let refusals = journal.filter { $0.event == .commitRefused }.compactMap { $0.detail["chunk"] }
            #expect(refusals == ["1"], "the refusal journalled once")
            #expect(try store.commit(taken, checkpoint: done(taken, of: job)) == .committed)
            let package = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(try store.commit(package, checkpoint: done(package, of: job)) == .committed)
            let check = LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: [0: "c0", 1: "c1", 2: "c2", -1: "package"])
            #expect(check.violations == [])
        }
    }

    @Test func aRefusedCommitWhoseReplyWasLostIsJournalledOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 1), chunks: makeChunks(1))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            #expect(try store.release(lease))
            let taken = try #require(try schema.openStore().claimChunk(worker: "other", lease: .seconds(60), job: job.id))
            // The conditional update, which marks nothing, keeps its reply; the refusal loses its own.
            store.dropReplies(1, after: 1)
            #expect(try store.commit(lease, checkpoint: done(lease, of: job)) == .refused)
            #expect(try store.journal(of: job.id).filter { $0.event == .commitRefused }.count == 1, "the refusal journalled once")
            try finish(job, from: taken, in: store, chunkKeys: [0: "c0"], refused: 1)
        }
    }

    /// The indexes of the chunks some worker holds a lease on.
    private func leasedChunks(_ schema: PostgresTestSchema) throws -> [Int] {
        try schema.connect().query("SELECT idx FROM chunks WHERE lease_owner IS NOT NULL ORDER BY idx")
            .map { try $0["idx"] as Int }
    }

    /// The tokens of the job's journalled claims, oldest first.
    private func claims(of job: JobRecord, in store: PostgresJobStore) throws -> [String?] {
        try store.journal(of: job.id).filter { $0.event == .claimed }.map { $0.detail["token"] }
    }

    /// What `lease`'s commit records: one more chunk of `job` done.
    private func done(_ lease: ChunkLease, of job: JobRecord) -> Checkpoint {
        Checkpoint(jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                   executor: "cpu",
                   progress: progress(after: job.progress, total: job.progress.unitsTotal, stage: lease.plan.stage, cost: 1))
    }

    /// Commits `lease`, then claims and commits the job's other chunks and its package stage, as
    /// one worker would, and checks the whole journal (`chunkKeys`: the chunks that must be
    /// committed once each).
    private func finish(_ job: JobRecord, from lease: ChunkLease, in store: PostgresJobStore, chunkKeys: [Int: String],
                        refused: Int = 0) throws {
        var next: ChunkLease? = lease
        while let current = next {
            #expect(try store.commit(current, checkpoint: done(current, of: job)) == .committed, "chunk \(current.chunkIndex)")
            next = try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id)
        }
        let check = LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: chunkKeys.merging([-1: "package"]) { $1 })
        #expect(check.violations == [])
        #expect(check.refusedCommits == refused)
    }
}
