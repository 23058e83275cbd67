import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on rescue: a lease that ran out is claimed again under a new epoch, and the worker that
/// lost it can neither renew nor commit.
extension LeaseContract {
    static let rescues: [LeaseContract] = [
        LeaseContract("an expired lease is rescued with a new epoch and the lost worker's renewal and commit are refused") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 1), chunks: makeChunks(1))
            let stale = try #require(try store.claim("stopped", lease: .milliseconds(200)))
            let rescue = try open().claimOnceExpired("other", "the store's clock passes the first lease's expiry")
            #expect(rescue.chunkIndex == 0)
            #expect(rescue.epoch == stale.epoch + 1)
            #expect(rescue.attempt == 1)
            #expect(rescue.outputName != stale.outputName)

            #expect(try store.renew(stale) == .lost)
            let done = Checkpoint(jobID: job.id, chunkIndex: 0, stage: .render, kind: job.kind, costSeconds: 1,
                                  executor: "cpu", progress: progress(after: job.progress, total: 1, stage: .render, cost: 1))
            #expect(try store.commit(stale, checkpoint: done) == .refused)
            #expect(try store.chunks(of: job.id).first?.isDone == false)
            #expect(try store.commit(rescue, checkpoint: done) == .committed)
            #expect(try store.commit(rescue, checkpoint: done) == .committed, "the same commit again changes nothing")
            #expect(try store.commit(stale, checkpoint: done) == .refused, "a stale commit is still refused")
            #expect(try store.chunks(of: job.id).first?.isDone == true)
            #expect(try store.chunks(of: job.id).first?.output == rescue.outputName, "the rescuer's output is the chunk's")

            let journal = try store.journal(of: job.id)
            let claims = journal.filter { $0.event == .claimed }
            #expect(claims.map { $0.detail["epoch"] } == ["1", "2"])
            #expect(claims.last?.detail["rescued_from"] == "stopped")
            let refused = journal.filter { $0.event == .commitRefused }
            #expect(refused.map { $0.detail["epoch"] } == ["1", "1"])
            #expect(refused.first?.detail["output"] == stale.outputName)
            let committed = journal.filter { $0.event == .checkpoint }
            #expect(committed.map { $0.detail["epoch"] } == ["2"])
            #expect(committed.first?.detail["output"] == rescue.outputName)
        },
        LeaseContract("stalled workers past their lease are rescued and their commits refused") { open in
            let count = 9
            let stalled = try open(), steady = try open()
            let job = try steady.insert(try makeDetachedJob(state: .running, unitsTotal: count), chunks: makeChunks(count))
            // Every third chunk's worker stalls, as one stopped with SIGSTOP: it does nothing until the
            // store's clock ends its 2 s lease (long enough to claim all nine first). The others commit
            // under minute-long leases.
            let stalls = stride(from: 0, to: count, by: 3).map { $0 }
            var leases: [ChunkLease] = []
            for index in 0..<count {
                let lease = try #require(try stalled.claim("stalled", lease: stalls.contains(index) ? .seconds(2) : .seconds(60)))
                #expect(lease.chunkIndex == index)
                leases.append(lease)
            }
            for lease in leases where !stalls.contains(lease.chunkIndex) {
                let snapshot = progress(after: try #require(try steady.job(job.id)).progress, total: count,
                                        stage: lease.plan.stage, cost: 1)
                #expect(try stalled.commit(lease, checkpoint: checkpoint(lease, of: job, snapshot)) == .committed)
            }
            for index in stalls {
                let rescue = try steady.claimOnceExpired("steady", "the store's clock ends chunk \(index)'s lease")
                #expect(rescue.chunkIndex == index)
                let snapshot = progress(after: try #require(try steady.job(job.id)).progress, total: count,
                                        stage: rescue.plan.stage, cost: 1)
                #expect(try stalled.renew(leases[index]) == .lost)
                #expect(try stalled.commit(leases[index], checkpoint: checkpoint(leases[index], of: job, snapshot)) == .refused)
                #expect(try steady.commit(rescue, checkpoint: checkpoint(rescue, of: job, snapshot)) == .committed)
            }
            let package = try #require(try steady.claim("steady"))
            var final = try #require(try steady.job(job.id)).progress
            final.bar.complete()
            #expect(try steady.commit(package, checkpoint: checkpoint(package, of: job, final)) == .committed)

            let check = LeaseJournalCheck(try steady.journal(of: job.id), chunkKeys: leaseKeys(count))
            #expect(check.violations == [])
            #expect(check.refusedCommits == stalls.count, "every stalled worker's commit was refused")
            #expect(check.rescues == stalls.count)
            #expect(try steady.job(job.id)?.state == .completed)
        },
    ]
}
