import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Testing

/// A call whose COMMIT reached the server but whose reply was lost with the connection runs its
/// transaction again on a remade connection (``PostgresJobStore/dropReplies(_:)`` drops the reply
/// of a call that committed, as a connection dying at that moment does): what it changed is
/// there once, not twice.
struct LostReplyTests {
    @Test func aJournalEntryWhoseReplyWasLostIsAppendedOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            store.dropReplies(1)
            try store.append(JournalEntry(jobID: job.id, event: .started, detail: ["process": "1"]))
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted, .started])
            try store.append(JournalEntry(jobID: job.id, event: .started, detail: ["process": "2"]))
            #expect(try store.journal(of: job.id).compactMap { $0.detail["process"] } == ["1", "2"],
                    "the same entry appended by a second call is a second entry")
        }
    }

    @Test func aJobWhoseInsertLostItsReplyIsStoredOnceAndReturnedAsStored() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try makeJob()
            store.dropReplies(1)
            let inserted = try store.insert(job, chunks: makeChunks(2))
            #expect(inserted.id == job.id)
            #expect(try store.job(job.id)?.queueSequence == inserted.queueSequence)
            #expect(try store.jobs().map(\.id) == [job.id])
            #expect(try store.chunks(of: job.id).count == 2)
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted])
        }
    }

    @Test func aStateChangeAndACheckpointWhoseRepliesWereLostAreJournalledOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            store.dropReplies(1)
            try store.transition(job.id, to: StateChange(state: .running, ownerPID: 42),
                                 journal: JournalEntry(jobID: job.id, event: .started))
            #expect(try store.job(job.id)?.state == .running)
            let plan = try #require(try store.chunks(of: job.id).first?.plan)
            store.dropReplies(1)
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 0, stage: plan.stage, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: progress(after: job.progress, total: 2, stage: plan.stage, cost: 1)))
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted, .started, .progressFirst, .checkpoint])
            #expect(try store.chunks(of: job.id).map(\.isDone) == [true, false])
        }
    }

    @Test func aReplanWhoseReplyWasLostAddsItsChunksOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            store.dropReplies(1)
            try store.replan(Replan(jobID: job.id, spec: job.spec, workKey: job.workKey, redoing: [],
                                    chunks: [PlannedChunk(key: "fresh", stage: .render)], progress: job.progress))
            #expect(try store.chunks(of: job.id).map(\.plan.key) == ["fresh"])
            #expect(try store.journal(of: job.id).count == 2, "submitted, and the replan once")
        }
    }

    @Test func keysOfAppliedCallsAreForgottenBySubmissionsOnceNoRetryCanNeedThem() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let sql = try schema.connect()
            try sql.query("""
                INSERT INTO applied_calls (key, applied_at) VALUES ('30 min', now() - interval '30 minutes'),
                    ('2 h', now() - interval '2 hours'), ('3 h', now() - interval '3 hours')
                """)
            func keys() throws -> [String] {
                // The calls' own keys are UUIDs, with dashes.
                try sql.query("SELECT key FROM applied_calls WHERE key NOT LIKE '%-%' ORDER BY applied_at DESC")
                    .map { try $0["key"] as String }
            }
            _ = try schema.openStore().jobs()
            #expect(try keys() == ["30 min", "2 h", "3 h"], "opening a store and reading it (`status`, `jobs`) write nothing")

            try store.announce(WorkerRecord(name: "slow", host: "h1", pid: 1, hasGPU: false, slots: 1, lease: .seconds(1000)))
            _ = try store.insert(try makeJob(), chunks: makeChunks(1))
            #expect(try keys() == ["30 min", "2 h"], "a worker's lease of 1,000 s keeps keys ten leases, 2.8 h")
            try store.retire(worker: "slow")
            _ = try store.insert(try makeJob(), chunks: makeChunks(1))
            #expect(try keys() == ["30 min"], "with no worker listed, keys are kept an hour")
        }
    }
}
