import Dispatch
import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Synchronization
import TaskContract
import Testing

/// The package stage is one more leased chunk: claimed by one worker once every chunk is done,
/// and its commit completes the job in the same transaction, fenced like any chunk's.
struct PackageLeaseTests {
    @Test func thePackageIsClaimedOnlyOnceEveryChunkIsDoneAndItsCommitCompletesTheJob() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            #expect(try store.chunks(of: job.id).map(\.index) == [0, 1], "the package is not listed as a chunk")
            let first = try #require(try store.claimChunk(worker: "a", lease: .seconds(60)))
            var snapshot = job.progress
            snapshot = progress(after: snapshot, total: 2, stage: first.plan.stage, cost: 1)
            #expect(try store.commit(first, checkpoint: checkpoint(first, job, snapshot)) == .committed)
            let second = try #require(try store.claimChunk(worker: "a", lease: .seconds(60)))
            #expect(second.chunkIndex == 1)
            #expect(try store.claimChunk(worker: "b", lease: .seconds(60)) == nil, "no package while chunk 1 runs")
            snapshot = progress(after: snapshot, total: 2, stage: second.plan.stage, cost: 1)
            #expect(try store.commit(second, checkpoint: checkpoint(second, job, snapshot)) == .committed)

            let package = try #require(try store.claimChunk(worker: "b", lease: .seconds(60)))
            #expect(package.chunkIndex == PostgresJobStore.packageIndex)
            #expect(package.plan.stage == .package)
            #expect(try store.job(job.id)?.state == .running)
            var final = snapshot
            final.bar.complete()
            #expect(try store.commit(package, checkpoint: checkpoint(package, job, final)) == .committed)
            let completed = try #require(try store.job(job.id))
            #expect(completed.state == .completed)
            #expect(completed.progress == final)
            #expect(try store.journal(of: job.id).last?.event == .ended)
            #expect(try store.journal(of: job.id).last?.detail["outcome"] == "completed")
            #expect(try store.claimChunk(worker: "c", lease: .seconds(60)) == nil)
        }
    }

    @Test func ofSeveralWorkersOnlyOneTakesThePackage() throws {
        try PostgresTestSchema.with { schema in
            let job = try schema.openStore().insert(try makeJob(state: .running), chunks: [])
            let taken = Mutex<[ChunkLease]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                guard let store = try? schema.openStore() else { return }
                if let lease = try? store.claimChunk(worker: "w\(worker)", lease: .seconds(60)) {
                    taken.withLock { $0.append(lease) }
                }
            }
            #expect(taken.withLock { $0.map(\.chunkIndex) } == [PostgresJobStore.packageIndex])
            #expect(taken.withLock { $0.first?.jobID } == job.id)
        }
    }

    @Test func aPackagerThatLostItsLeaseCannotCompleteTheJob() async throws {
        try await PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(state: .running), chunks: [])
            let stale = try #require(try store.claimChunk(worker: "stopped", lease: .milliseconds(200)))
            let watcher = try schema.connect()
            try await waitUntil("the database's clock passes the packager's lease") {
                try watcher.query("SELECT 1 AS expired FROM chunks WHERE job_id = $1 AND idx = -1 AND lease_expires_at <= now()",
                                  job.id.rawValue).count == 1
            }
            let rescue = try #require(try store.claimChunk(worker: "other", lease: .seconds(60)))
            #expect(rescue.chunkIndex == PostgresJobStore.packageIndex)
            #expect(rescue.epoch == stale.epoch + 1)
            #expect(try store.commit(stale, checkpoint: checkpoint(stale, job, job.progress)) == .refused)
            #expect(try store.job(job.id)?.state == .running)
            #expect(try store.commit(rescue, checkpoint: checkpoint(rescue, job, job.progress)) == .committed)
            #expect(try store.job(job.id)?.state == .completed)
        }
    }

    @Test func aJobStoredBeforePackageChunksGetsOneWhenTheStoreMigrates() throws {
        try PostgresTestSchema.with { schema in
            let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 3)
            let job = try old.insert(try makeJob(state: .running), chunks: [])
            let rows = try schema.connect().query("SELECT count(*) AS n FROM chunks WHERE job_id = $1", job.id.rawValue)
            #expect(try rows.first?["n"] == Int64(1), "this program adds the package row at insert, whatever the schema")
            try schema.connect().query("DELETE FROM chunks WHERE job_id = $1", job.id.rawValue)

            let store = try schema.openStore()
            let package = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(package.jobID == job.id)
            #expect(package.plan == PostgresJobStore.packageChunk)
        }
    }

    private func checkpoint(_ lease: ChunkLease, _ job: JobRecord, _ snapshot: ProgressSnapshot) -> Checkpoint {
        Checkpoint(jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                   executor: "cpu", progress: snapshot)
    }
}
