import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on chunks that fail under a lease (``ChunkFailure``): a worker that could not open an
/// input gives the chunk to another worker first; a chunk with bad items is settled, the others
/// go on, the package stage is claimed once they are done, and resuming the job tries it again.
extension LeaseContract {
    static let failures: [LeaseContract] = [
        LeaseContract("a chunk with bad items is settled, the others and the package go on, and resume retries it") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            let bad = ItemFailure(item: "assets[0] (a.jpg)", reason: "the file is truncated (on host h1)")
            let first = try #require(try store.claim("a"))
            #expect(first.chunkIndex == 0)
            #expect(try store.fail(first, .badItems([bad], "on host h1: a.jpg is truncated")))
            #expect(try store.badItems(of: job.id) == [BadItem(item: bad.item, reason: bad.reason, outcome: .failed, chunkIndex: 0)])
            let failed = try #require(try store.journal(of: job.id).last)
            #expect(failed.event == .chunkFailed)
            #expect(failed.detail["message"] == "on host h1: a.jpg is truncated")
            #expect(failed.detail["retry"] == nil)
            #expect(try store.fail(first, .badItems([bad], "again")) == false, "the lease no longer holds the chunk")

            let second = try #require(try store.claim("b"))
            #expect(second.chunkIndex == 1, "the settled chunk is not claimed again")
            let snapshot = progress(after: job.progress, total: 2, stage: second.plan.stage, cost: 1)
            #expect(try store.commit(second, checkpoint: checkpoint(second, of: job, snapshot)) == .committed)
            let package = try #require(try store.claim("b"), "the package comes once every chunk is done or settled")
            #expect(package.chunkIndex == ChunkLease.packageIndex)
            try store.transition(job.id, to: StateChange(state: .failed, failure: .invalidInput, message: "1 item"),
                                 journal: nil)
            #expect(try store.release(package))

            try store.transition(job.id, to: StateChange(state: .queued), journal: nil)
            let retried = try #require(try store.claim("c"), "resuming the job gives its failed chunk back")
            #expect(retried.chunkIndex == 0)
            #expect(retried.failures == 0)
        },
        LeaseContract("a chunk whose worker could not open an input goes to another worker first, then back") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(state: .running, unitsTotal: 1), chunks: makeChunks(1))
            let blind = try #require(try store.claim("blind"))
            #expect(blind.failures == 0)
            #expect(try store.fail(blind, .elsewhere("on host h1: /shared/a.jpg cannot be read here")))
            #expect(try store.claim("blind") == nil, "not back to the worker that failed it before its lease's length")
            #expect(try store.badItems(of: job.id).isEmpty, "the item is not bad yet")
            let failed = try #require(try store.journal(of: job.id).last)
            #expect(failed.event == .chunkFailed)
            #expect(failed.detail["retry"] == "true")
            #expect(failed.detail["message"] == "on host h1: /shared/a.jpg cannot be read here")

            let other = try #require(try store.claim("other", lease: .milliseconds(200)))
            #expect(other.chunkIndex == 0)
            #expect(other.failures == 1)
            #expect(other.attempt == 0, "a failure is not an expired lease")
            #expect(other.epoch == blind.epoch + 1)
            #expect(try store.fail(other, .elsewhere("on host h2: /shared/a.jpg cannot be read here")))
            let again = try open().claimOnceExpired("other", "the store's clock passes the failed lease's length")
            #expect(again.failures == 2, "the only worker left takes it back once the lease's length passed")
            #expect(try store.commit(again, checkpoint: checkpoint(again, of: job, job.progress)) == .committed)
        },
    ]
}
