import Dispatch
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

/// Clauses on the package stage: one more leased chunk, claimed by one worker once every chunk is
/// done, whose commit completes the job in the same transaction, and whose failure ends it, both
/// fenced like any chunk's commit.
extension LeaseContract {
    static let packages: [LeaseContract] = [
        LeaseContract("the package is claimed only once every chunk is done and its commit completes the job") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            #expect(try store.chunks(of: job.id).map(\.index) == [0, 1], "the package is not listed as a chunk")
            let first = try #require(try store.claim("a"))
            var snapshot = progress(after: job.progress, total: 2, stage: first.plan.stage, cost: 1)
            #expect(try store.commit(first, checkpoint: checkpoint(first, of: job, snapshot)) == .committed)
            let second = try #require(try store.claim("a"))
            #expect(second.chunkIndex == 1)
            #expect(try store.claim("b") == nil, "no package while chunk 1 runs")
            snapshot = progress(after: snapshot, total: 2, stage: second.plan.stage, cost: 1)
            #expect(try store.commit(second, checkpoint: checkpoint(second, of: job, snapshot)) == .committed)

            let package = try #require(try store.claim("b"))
            #expect(package.chunkIndex == ChunkLease.packageIndex)
            #expect(package.plan == ChunkLease.packageChunk)
            #expect(try store.job(job.id)?.state == .running)
            var final = snapshot
            final.bar.complete()
            #expect(try store.commit(package, checkpoint: checkpoint(package, of: job, final)) == .committed)
            let completed = try #require(try store.job(job.id))
            #expect(completed.state == .completed)
            #expect(completed.progress == final)
            #expect(try store.journal(of: job.id).last?.event == .ended)
            #expect(try store.journal(of: job.id).last?.detail["outcome"] == "completed")
            #expect(try store.claim("c") == nil)
        },
        LeaseContract("of several workers only one takes the package") { open in
            let job = try open().insert(try makeDetachedJob(state: .running), chunks: [])
            let stores = try (0..<4).map { _ in try open() }
            let taken = Mutex<[ChunkLease]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: stores.count) { worker in
                do {
                    if let lease = try stores[worker].claim("w\(worker)") { taken.withLock { $0.append(lease) } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(taken.withLock { $0.map(\.chunkIndex) } == [ChunkLease.packageIndex])
            #expect(taken.withLock { $0.first?.jobID } == job.id)
        },
        LeaseContract("a packager that lost its lease cannot complete the job") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running), chunks: [])
            let stale = try #require(try store.claim("stopped", lease: .milliseconds(200)))
            let rescue = try open().claimOnceExpired("other", "the store's clock passes the packager's lease")
            #expect(rescue.chunkIndex == ChunkLease.packageIndex)
            #expect(rescue.epoch == stale.epoch + 1)
            #expect(try store.commit(stale, checkpoint: checkpoint(stale, of: job, job.progress)) == .refused)
            #expect(try store.job(job.id)?.state == .running)
            #expect(try store.commit(rescue, checkpoint: checkpoint(rescue, of: job, job.progress)) == .committed)
            #expect(try store.job(job.id)?.state == .completed)
        },
        LeaseContract("a packager that lost its lease cannot fail the job; the package's holder can") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running), chunks: [])
            let stale = try #require(try store.claim("stopped", lease: .milliseconds(200)))
            let rescue = try open().claimOnceExpired("other", "the store's clock passes the packager's lease")
            #expect(rescue.chunkIndex == ChunkLease.packageIndex)
            let failed = StateChange(state: .failed, failure: .invalidInput, message: "2 items are bad", clearsCancel: true)
            func ended(_ lease: ChunkLease) -> JournalEntry {
                JournalEntry(jobID: job.id, event: .ended, detail: ["outcome": "failed", "worker": lease.worker])
            }
            let before = try store.journal(of: job.id).count
            #expect(try store.endJob(stale, failed, journal: ended(stale)) == false, "epoch \(stale.epoch) lost its lease")
            #expect(try store.job(job.id)?.state == .running)
            #expect(try store.journal(of: job.id).count == before, "a refused ending journals nothing")
            #expect(try store.renew(rescue) == .renewed(cancelRequested: false), "the holder's lease is untouched")

            #expect(try store.endJob(rescue, failed, journal: ended(rescue)))
            let stopped = try #require(try store.job(job.id))
            #expect(stopped.state == .failed)
            #expect(stopped.failure == .invalidInput)
            #expect(stopped.message == "2 items are bad")
            let tail = try store.journal(of: job.id).suffix(2)
            #expect(tail.map(\.event) == [.released, .ended])
            #expect(tail.first?.detail["epoch"] == String(rescue.epoch))
            #expect(tail.last?.detail["worker"] == "other")
            #expect(try store.renew(rescue) == .lost, "the package was given back with the ending")
            #expect(try store.claim("third") == nil, "a failed job's package is not claimed")
            #expect(try store.endJob(rescue, failed, journal: ended(rescue)) == false, "the lease ended with the job")
        },
        LeaseContract("a replanned job keeps its package stage, claimed once the new chunks are done") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            try store.replan(Replan(jobID: job.id, spec: job.spec, workKey: job.workKey, redoing: [],
                                    chunks: [PlannedChunk(key: "fresh", stage: .render)], progress: job.progress))
            #expect(try store.chunks(of: job.id).map(\.plan.key) == ["fresh"])
            let chunk = try #require(try store.claim("a"))
            #expect(try store.commit(chunk, checkpoint: checkpoint(chunk, of: job, job.progress)) == .committed)
            #expect(try store.claim("a")?.chunkIndex == ChunkLease.packageIndex)
        },
        LeaseContract("a restarted job's chunks and package are claimed afresh") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running), chunks: makeChunks(1))
            let chunk = try #require(try store.claim("a"))
            #expect(try store.commit(chunk, checkpoint: checkpoint(chunk, of: job, job.progress)) == .committed)
            let package = try #require(try store.claim("a"))
            #expect(package.chunkIndex == ChunkLease.packageIndex)
            try store.resetChunks(of: job.id, progress: job.progress)
            #expect(try store.claim("b")?.chunkIndex == 0, "the chunk is to do again, before the package")
            #expect(try store.renew(package) == .lost, "the reset ended the packager's lease")
        },
    ]
}
