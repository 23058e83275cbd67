import Foundation
import JobEngine
import JobStoreConformance
import SQLiteJobStore
import Testing

struct SQLiteJobStoreTests {
    @Test(arguments: JobStoreContract.all)
    func keepsTheStoreContract(_ clause: JobStoreContract) throws {
        try withStorePath { path in
            try clause.check { try SQLiteJobStore(path: path) }
            #expect(try SQLiteJobStore(path: path).integrityCheck() == ["ok"])
        }
    }

    @Test(arguments: LeaseContract.all)
    func keepsTheLeaseContract(_ clause: LeaseContract) throws {
        try withStorePath { path in
            try clause.check { try SQLiteJobStore(path: path) }
            #expect(try SQLiteJobStore(path: path).integrityCheck() == ["ok"])
        }
    }

    @Test func onlyJobsLeftToWorkersAreClaimed() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let owned = try store.insert(try makeJob(state: .running), chunks: makeChunks(1))
            #expect(owned.ownerPID != nil)
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60)) == nil, "a process runs that job itself")
            let detached = try store.insert(try makeDetachedJob(), chunks: makeChunks(1))
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.jobID == detached.id)
        }
    }

    @Test func checkpointsRecordedTogetherAreAllRecordedOrNone() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: makeChunks(3))
            let next = progress(after: job.progress, total: 3, stage: .render, cost: 1)
            func landing(_ index: Int) -> Checkpoint {
                Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind, costSeconds: 1, executor: "cpu",
                           progress: next)
            }
            // The second of the two names a chunk the job does not have: the first is not recorded either.
            #expect(throws: JobStoreError.noSuchChunk(job.id, index: 7)) { try store.checkpoint([landing(0), landing(7)]) }
            #expect(try store.chunks(of: job.id).map(\.isDone) == [false, false, false])
            #expect(try store.job(job.id)?.progress == job.progress)
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted])
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func freshStoreIsSound() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            #expect(store.path == path)
            #expect(try store.integrityCheck() == ["ok"])
            #expect(try store.jobs().isEmpty)
        }
    }
}
