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

    @Test func freshStoreIsSound() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            #expect(store.path == path)
            #expect(try store.integrityCheck() == ["ok"])
            #expect(try store.jobs().isEmpty)
        }
    }
}
