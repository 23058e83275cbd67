import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on commits landed together (``LeasingJobStore/commit(_:)``, a worker's committer): each
/// entry is answered as its commit alone would be, and the same batch again changes nothing.
extension LeaseContract {
    static let batches: [LeaseContract] = [
        LeaseContract("a batch commits its chunks and refuses, journalled, the entry whose lease was lost") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 3), chunks: makeChunks(3))
            let leases = try (0..<3).map { _ in try #require(try store.claim("w")) }
            #expect(try store.release(leases[1]))
            let taken = try #require(try open().claim("other"), "the chunk given back is another worker's now")
            #expect(taken.chunkIndex == leases[1].chunkIndex)
            let snapshot = progress(after: job.progress, total: 3, stage: .render, cost: 1)
            let answers = store.commit(leases.map { (lease: $0, checkpoint: checkpoint($0, of: job, snapshot)) })
            #expect(answers.map { try? $0.get() } == [.committed, .refused, .committed])
            #expect(try store.chunks(of: job.id).map(\.isDone) == [true, false, true])
            let refused = try store.journal(of: job.id).filter { $0.event == .commitRefused }
            #expect(refused.map { $0.detail["output"] } == [leases[1].outputName])
            #expect(try store.commit(taken, checkpoint: checkpoint(taken, of: job, snapshot)) == .committed)
            let package = try #require(try store.claim("w"))
            #expect(store.commit([(lease: package, checkpoint: checkpoint(package, of: job, snapshot))])
                .map { try? $0.get() } == [.committed], "a package stage in a batch completes its job")
            #expect(try store.job(job.id)?.state == .completed)
            let check = LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: leaseKeys(3))
            #expect(check.violations == [])
            #expect(check.refusedCommits == 1)
        },
        LeaseContract("the same batch again says committed and records nothing twice") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 3), chunks: makeChunks(3))
            let leases = try (0..<2).map { _ in try #require(try store.claim("w")) }
            let snapshot = progress(after: job.progress, total: 3, stage: .render, cost: 1)
            let batch = leases.map { (lease: $0, checkpoint: checkpoint($0, of: job, snapshot)) }
            #expect(store.commit(batch).map { try? $0.get() } == [.committed, .committed])
            #expect(store.commit(batch).map { try? $0.get() } == [.committed, .committed])
            let journal = try store.journal(of: job.id)
            #expect(journal.filter { $0.event == .checkpoint }.compactMap { $0.detail["chunk"] }.sorted() == ["0", "1"])
            #expect(!journal.contains { $0.event == .commitRefused })
            #expect(try store.job(job.id)?.progress == snapshot)
            #expect(try store.chunks(of: job.id).map(\.isDone) == [true, true, false])
        },
    ]
}
