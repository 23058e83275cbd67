import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import TaskContract
import Testing

/// What a chunk's commit under a lease records, all in one statement: the chunk done with its
/// output, the job's progress, the chunk's skipped items, the learned cost, and the journal.
struct LeaseCommitTests {
    @Test func aCommitRecordsTheChunkItsSkippedItemsTheCostAndTheJournalAndTheFirstProgressOnce() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running, unitsTotal: 3), chunks: makeChunks(3))
            let skipped = [ItemFailure(item: "assets[1] (l'été; \"ß\".jpg)", reason: "unreadable"),
                           ItemFailure(item: "assets[2]", reason: "too large")]
            var snapshot = job.progress
            var last: ChunkLease?
            for index in 0..<3 {
                let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
                last = lease
                #expect(lease.chunkIndex == index)
                snapshot = progress(after: snapshot, total: 3, stage: lease.plan.stage, cost: Double(index + 1))
                let result = try store.commit(lease, checkpoint: Checkpoint(
                    jobID: job.id, chunkIndex: index, stage: lease.plan.stage, kind: job.kind, costSeconds: Double(index + 1),
                    executor: "cpu", progress: snapshot, skipped: index == 1 ? skipped : []))
                #expect(result == .committed)
            }

            let chunks = try store.chunks(of: job.id)
            #expect(chunks.map(\.isDone) == [true, true, true])
            #expect(chunks.map(\.costSeconds) == [1, 2, 3])
            #expect(try store.job(job.id)?.progress == snapshot)
            #expect(try store.badItems(of: job.id) == skipped.map { BadItem(item: $0.item, reason: $0.reason, outcome: .skipped,
                                                                            chunkIndex: 1) })
            #expect(try store.costHistory(kind: job.kind) == [
                .render: snapshot.costs.estimate(for: .render), .encode: snapshot.costs.estimate(for: .encode),
            ])
            let journal = try store.journal(of: job.id).filter { $0.event != .claimed }
            #expect(journal.map(\.event) == [.submitted, .progressFirst, .checkpoint, .checkpoint, .checkpoint])
            let output = "c2.1-\(try #require(last?.token))"
            #expect(journal.last?.detail == ["chunk": "2", "epoch": "1", "worker": "w", "output": output,
                                             "fraction": String(format: "%.4f", snapshot.fraction)])
            let stored = try schema.connect().query("SELECT output FROM chunks WHERE job_id = $1 AND idx = 2", job.id.rawValue)
            #expect(try stored.first?["output"] as String? == output)
        }
    }

    @Test func aReplanThatRedoesEveryDoneChunkMakesTheNextCommitTheFirstProgressAgain() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            func commitNext() throws {
                let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
                #expect(try store.commit(lease, checkpoint: Checkpoint(
                    jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                    executor: "cpu", progress: progress(after: job.progress, total: 2, stage: lease.plan.stage, cost: 1)))
                    == .committed)
            }
            try commitNext()
            try store.replan(Replan(jobID: job.id, spec: job.spec, workKey: job.workKey, redoing: [0],
                                    chunks: [PlannedChunk(key: "again", stage: .render)], progress: job.progress))
            try commitNext()
            #expect(try store.journal(of: job.id).filter { $0.event == .progressFirst }.count == 2,
                    "the replan left no chunk done, so the next one done is the first again")
        }
    }

    @Test func aClaimJournalsItsEpochWorkerTokenAndTheWorkerItRescuedFrom() async throws {
        try await PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running), chunks: makeChunks(1))
            let lost = try #require(try store.claimChunk(worker: "lost 'one'", lease: .milliseconds(200)))
            let watcher = try schema.connect()
            try await waitUntil("the database's clock ends the first lease") {
                try watcher.query("SELECT 1 AS expired FROM chunks WHERE job_id = $1 AND idx = 0 AND lease_expires_at <= now()",
                                  job.id.rawValue).count == 1
            }
            let rescue = try #require(try store.claimChunk(worker: "rescuer", lease: .seconds(60)))
            #expect(rescue.epoch == 2 && rescue.attempt == 1)
            let claims = try store.journal(of: job.id).filter { $0.event == .claimed }.map(\.detail)
            #expect(claims == [["chunk": "0", "epoch": "1", "worker": "lost 'one'", "token": try #require(lost.token)],
                               ["chunk": "0", "epoch": "2", "worker": "rescuer", "token": try #require(rescue.token),
                                "rescued_from": "lost 'one'"]])
        }
    }
}
