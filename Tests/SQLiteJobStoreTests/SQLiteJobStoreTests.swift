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

    @Test func freshStoreIsSound() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            #expect(store.path == path)
            #expect(try store.integrityCheck() == ["ok"])
            #expect(try store.jobs().isEmpty)
        }
    }
}
