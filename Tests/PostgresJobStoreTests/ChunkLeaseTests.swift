import Dispatch
import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import Synchronization
import TaskContract
import Testing

/// The lease protocol: claims never overlap, epochs fence, leases follow the database's clock,
/// expired leases are rescued by the next claim, and a commit from a lost lease is refused.
struct ChunkLeaseTests {
    @Test func workersClaimingAtOnceTakeEveryChunkExactlyOnce() throws {
        try PostgresTestSchema.with { schema in
            let job = try schema.openStore().insert(try makeJob(unitsTotal: 40), chunks: makeChunks(40))
            let claims = Mutex<[ChunkLease]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                do {
                    let store = try schema.openStore()
                    while let lease = try store.claimChunk(worker: "w\(worker)", lease: .seconds(60)) {
                        claims.withLock { $0.append(lease) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let taken = claims.withLock { $0 }
            #expect(taken.map(\.chunkIndex).sorted() == Array(0..<40))
            #expect(taken.allSatisfy { $0.jobID == job.id && $0.epoch == 1 && $0.attempt == 0 })
            #expect(try schema.openStore().journal(of: job.id).filter { $0.event == .claimed }.count == 40)
        }
    }

    @Test func aClaimSkipsAChunkAnotherSessionHasLockedInsteadOfWaiting() async throws {
        try await PostgresTestSchema.with { schema in
            let job = try schema.openStore().insert(try makeJob(), chunks: makeChunks(2))
            let holder = try await schema.connectQueued()
            try await holder.run { connection in
                try connection.query("BEGIN")
                try connection.query("SELECT idx FROM chunks WHERE job_id = $1 AND idx = 0 FOR UPDATE", job.id.rawValue)
            }
            // Waiting on the lock would end the statement after 5 s with an error, failing the test.
            let store = try schema.openStore(settings: ["lock_timeout": "5s"])
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(lease.chunkIndex == 1)
            try await holder.run { try $0.query("ROLLBACK") }
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.chunkIndex == 0)
        }
    }

    @Test func theLeaseRunsByTheDatabasesClockAndOutputsAreNamedByEpoch() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(90)))
            #expect(lease.outputName == "c0.1")
            let remaining: Double = try #require(try schema.connect().query(
                "SELECT extract(epoch FROM lease_expires_at - now())::float8 AS left FROM chunks WHERE job_id = $1 AND idx = 0",
                job.id.rawValue).first?["left"])
            #expect(remaining > 0 && remaining <= 90, "the lease ends 90 s after the database's now: \(remaining) s left")
        }
    }

    @Test func anExpiredLeaseIsRescuedWithANewEpochAndTheLostWorkersRenewalAndCommitAreRefused() async throws {
        try await PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 1), chunks: makeChunks(1))
            let stale = try #require(try store.claimChunk(worker: "stopped", lease: .milliseconds(200)))
            #expect(try store.claimChunk(worker: "other", lease: .seconds(60)) == nil, "a live lease is not rescued")
            let watcher = try schema.connect()
            try await waitUntil("the database's clock passes the first lease's expiry") {
                try watcher.query("SELECT 1 AS expired FROM chunks WHERE job_id = $1 AND lease_expires_at <= now()",
                                  job.id.rawValue).count == 1
            }
            let rescue = try #require(try store.claimChunk(worker: "other", lease: .seconds(60)))
            #expect(rescue.chunkIndex == 0)
            #expect(rescue.epoch == stale.epoch + 1)
            #expect(rescue.attempt == 1)
            #expect(rescue.outputName != stale.outputName)

            #expect(try store.renew(stale) == .lost)
            let checkpoint = Checkpoint(jobID: job.id, chunkIndex: 0, stage: .render, kind: job.kind, costSeconds: 1,
                                        executor: "cpu", progress: progress(after: job.progress, total: 1, stage: .render, cost: 1))
            #expect(try store.commit(stale, checkpoint: checkpoint) == .refused)
            #expect(try store.chunks(of: job.id).first?.isDone == false)
            #expect(try store.commit(rescue, checkpoint: checkpoint) == .committed)
            #expect(try store.commit(rescue, checkpoint: checkpoint) == .committed, "the same commit again changes nothing")
            #expect(try store.commit(stale, checkpoint: checkpoint) == .refused, "a stale commit is still refused")
            #expect(try store.chunks(of: job.id).first?.isDone == true)
            let output: String? = try watcher.query("SELECT output FROM chunks WHERE job_id = $1 AND idx = 0", job.id.rawValue).first?["output"]
            #expect(output == rescue.outputName)

            let journal = try store.journal(of: job.id)
            let claims = journal.filter { $0.event == .claimed }
            #expect(claims.map { $0.detail["epoch"] } == ["1", "2"])
            #expect(claims.last?.detail["rescued_from"] == "stopped")
            let refused = journal.filter { $0.event == .commitRefused }
            #expect(refused.map { $0.detail["epoch"] } == ["1", "1"])
            #expect(refused.first?.detail["output"] == "c0.1")
            let committed = journal.filter { $0.event == .checkpoint }
            #expect(committed.map { $0.detail["epoch"] } == ["2"])
            #expect(committed.first?.detail["output"] == "c0.2")
        }
    }

    @Test func renewalExtendsTheLeaseAndReportsACancel() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(try store.renew(lease) == .renewed(cancelRequested: false))
            try schema.openStore().requestCancel(job.id)
            #expect(try store.renew(lease) == .renewed(cancelRequested: true))
        }
    }

    @Test func aReleasedChunkIsClaimedAgainAtOnceWithoutCountingAsAnAttempt() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let first = try #require(try store.claimChunk(worker: "stopping", lease: .seconds(60)))
            #expect(try store.release(first))
            #expect(try !store.release(first), "released once")
            let again = try #require(try store.claimChunk(worker: "next", lease: .seconds(60)))
            #expect(again.epoch == 2)
            #expect(again.attempt == 0)
            #expect(try store.renew(first) == .lost)
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted, .claimed, .released, .claimed])
        }
    }

    @Test(arguments: [JobState.paused, .interrupted, .failed, .completed, .discarded, .rejected])
    func chunksOfAJobThatIsNotQueuedOrRunningAreNotClaimed(_ state: JobState) throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            _ = try store.insert(try makeJob(state: state), chunks: makeChunks(2))
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60)) == nil)
            let running = try store.insert(try makeJob(state: .running), chunks: makeChunks(1))
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.jobID == running.id)
        }
    }

    @Test func aCommitNeverMovesTheBarBackwards() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(unitsTotal: 2), chunks: makeChunks(2))
            let first = try #require(try store.claimChunk(worker: "a", lease: .seconds(60)))
            let second = try #require(try store.claimChunk(worker: "b", lease: .seconds(60)))
            let early = progress(after: job.progress, total: 2, stage: .render, cost: 1)
            let late = progress(after: early, total: 2, stage: .encode, cost: 1)
            func checkpoint(_ lease: ChunkLease, _ snapshot: ProgressSnapshot) -> Checkpoint {
                Checkpoint(jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind,
                           costSeconds: 1, executor: "cpu", progress: snapshot)
            }
            #expect(try store.commit(second, checkpoint: checkpoint(second, late)) == .committed)
            #expect(try store.commit(first, checkpoint: checkpoint(first, early)) == .committed)
            #expect(try store.job(job.id)?.progress == late)
        }
    }
}

/// Who may claim what: chunks of a job that requires a GPU only by a worker that has one.
struct GPUClaimTests {
    @Test func aJobThatRequiresAGPUIsClaimedOnlyByAWorkerWithOne() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            var gpuJob = try makeJob(state: .running)
            gpuJob.request = try TaskRequest(identifier: gpuJob.request.identifier, title: "Exporting Holiday",
                                             subtitle: "render", requiredResources: .gpu)
            _ = try store.insert(gpuJob, chunks: makeChunks(1))
            #expect(try store.claimChunk(worker: "cpu-only", lease: .seconds(60)) == nil)
            let anyJob = try store.insert(try makeJob(state: .running), chunks: makeChunks(1))
            #expect(try store.claimChunk(worker: "cpu-only", lease: .seconds(60))?.jobID == anyJob.id)
            let taken = try #require(try store.claimChunk(worker: "with-gpu", lease: .seconds(60), hasGPU: true))
            #expect(taken.jobID == gpuJob.id)
        }
    }
}
