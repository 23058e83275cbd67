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

/// Workers sharing a job through leases, stalled ones included, leave a journal the checker accepts.
struct LeaseJournalTests {
    @Test func workersAtOnceLeaveOneCommitPerChunk() throws {
        try PostgresTestSchema.with { schema in
            let job = try schema.openStore().insert(try makeJob(state: .running, unitsTotal: 30), chunks: makeChunks(30))
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                do {
                    let store = try schema.openStore()
                    while let lease = try store.claimChunk(worker: "w\(worker)", lease: .seconds(60)) {
                        let stored = try #require(try store.job(job.id))
                        let snapshot = progress(after: stored.progress, total: 30, stage: lease.plan.stage, cost: 1)
                        _ = try store.commit(lease, checkpoint: checkpoint(lease, job, snapshot))
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let store = try schema.openStore()
            #expect(try store.job(job.id)?.state == .completed)
            let check = LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: keys(30))
            #expect(check.violations == [])
            #expect(check.refusedCommits == 0)
        }
    }

    @Test func stalledWorkersPastTheirLeaseAreRescuedAndTheirCommitsRefused() async throws {
        try await PostgresTestSchema.with { schema in
            let count = 9
            let stalled = try schema.openStore(), steady = try schema.openStore()
            let job = try steady.insert(try makeJob(state: .running, unitsTotal: count), chunks: makeChunks(count))
            let watcher = try schema.connect()
            var stalls = 0
            for index in 0..<count {
                let lease = try #require(try stalled.claimChunk(worker: "stalled", lease: .milliseconds(300)))
                #expect(lease.chunkIndex == index)
                let snapshot = progress(after: try #require(try steady.job(job.id)).progress, total: count,
                                        stage: lease.plan.stage, cost: 1)
                guard index.isMultiple(of: 3) else {
                    #expect(try stalled.commit(lease, checkpoint: checkpoint(lease, job, snapshot)) == .committed)
                    continue
                }
                // As a worker stopped with SIGSTOP: it does nothing until the database's clock ends its lease.
                try await waitUntil("the database's clock ends chunk \(index)'s lease") {
                    try watcher.query("SELECT 1 AS expired FROM chunks WHERE job_id = $1 AND idx = $2 AND lease_expires_at <= now()",
                                      job.id.rawValue, index).count == 1
                }
                let rescue = try #require(try steady.claimChunk(worker: "steady", lease: .seconds(60)))
                #expect(rescue.chunkIndex == index)
                #expect(try stalled.renew(lease) == .lost)
                #expect(try stalled.commit(lease, checkpoint: checkpoint(lease, job, snapshot)) == .refused)
                #expect(try steady.commit(rescue, checkpoint: checkpoint(rescue, job, snapshot)) == .committed)
                stalls += 1
            }
            let package = try #require(try steady.claimChunk(worker: "steady", lease: .seconds(60)))
            var final = try #require(try steady.job(job.id)).progress
            final.bar.complete()
            #expect(try steady.commit(package, checkpoint: checkpoint(package, job, final)) == .committed)

            let check = LeaseJournalCheck(try steady.journal(of: job.id), chunkKeys: keys(count))
            #expect(check.violations == [])
            #expect(stalls == 3)
            #expect(check.refusedCommits == stalls, "every stalled worker's commit was refused")
            #expect(check.rescues == stalls)
            #expect(try steady.job(job.id)?.state == .completed)
        }
    }

    private func keys(_ count: Int) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, "c\($0)") } + [(PostgresJobStore.packageIndex, "package")])
    }

    private func checkpoint(_ lease: ChunkLease, _ job: JobRecord, _ snapshot: ProgressSnapshot) -> Checkpoint {
        Checkpoint(jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                   executor: "cpu", progress: snapshot)
    }
}
