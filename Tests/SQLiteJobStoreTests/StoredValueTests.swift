import CSQLite
import Foundation
import JobEngine
import JobStoreConformance
@testable import SQLiteJobStore
import Testing

/// The store reads what it knows by name and refuses what it does not know, saying what it is.
@Suite struct StoredValueTests {
    @Test func aStateThisProgramDoesNotKnowIsAnErrorNamingIt() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: [])
            try SQLiteDatabase(path: path).execute("UPDATE jobs SET state = 'levitating'")
            #expect(throws: JobStoreError.unknownValue(column: "state", value: "levitating", job: job.id.rawValue)) {
                try store.job(job.id)
            }
            #expect(throws: JobStoreError.self) { try store.jobs() }
        }
    }

    @Test func aFailureCategoryThisProgramDoesNotKnowIsAnErrorNamingIt() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(state: .failed), chunks: [])
            try SQLiteDatabase(path: path).execute("UPDATE jobs SET failure = 'gremlins'")
            #expect(throws: JobStoreError.unknownValue(column: "failure", value: "gremlins", job: job.id.rawValue)) {
                try store.job(job.id)
            }
        }
    }

    @Test func aJournalEventThisProgramDoesNotKnowIsAnErrorNamingIt() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: [])
            try SQLiteDatabase(path: path).execute("UPDATE journal SET event = 'teleported'")
            let error = try #require(throws: JobStoreError.self) { try store.journal(of: job.id) }
            #expect(error == .unknownValue(column: "journal event", value: "teleported", job: job.id.rawValue))
            #expect(error.message.contains("'teleported'"))
        }
    }

    @Test func aStateChangeForAJobThatIsNotThereNamesTheJob() throws {
        try withStorePath { path in
            let id = JobID.make()
            #expect(throws: JobStoreError.noSuchJob(id)) {
                try SQLiteJobStore(path: path).transition(id, to: StateChange(state: .paused), journal: nil)
            }
        }
    }

    @Test func aFailedStatementKeepsTheExtendedCodeTheMessageAndTheSQL() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try makeJob()
            _ = try store.insert(job, chunks: [])
            let error = try #require(throws: SQLiteError.self) { try store.insert(job, chunks: []) }
            #expect(error.extendedCode == SQLITE_CONSTRAINT | (6 << 8), "SQLITE_CONSTRAINT_PRIMARYKEY")
            #expect(error.code == SQLITE_CONSTRAINT)
            #expect(error.sqliteMessage.contains("UNIQUE constraint failed: jobs.id"), "\(error.sqliteMessage)")
            #expect(error.statement.contains("INSERT INTO jobs"), "\(error.statement)")
        }
    }

    @Test func rowsAreReadByColumnNameAndAMissingNameIsAnError() throws {
        try withStorePath { path in
            let database = try SQLiteDatabase(path: path)
            let pairs = try database.prepare("SELECT 'b' AS second, 1 AS first").rows { row in
                (try row.integer("first"), try row.text("second"))
            }
            #expect(pairs.count == 1 && pairs[0] == (1, "b"))
            #expect(throws: SQLiteStoreError.noSuchColumn("third", statement: "SELECT 'b' AS second, 1 AS first")) {
                try database.prepare("SELECT 'b' AS second, 1 AS first").rows { try $0.text("third") }
            }
        }
    }

    @Test func aStatementIsPreparedOnceAndReused() throws {
        try withStorePath { path in
            let database = try SQLiteDatabase(path: path)
            let sql = "SELECT ?1 AS value"
            let first = try database.prepare(sql)
            #expect(try first.rows([.integer(7)]) { try $0.integer("value") } == [7])
            let again = try database.prepare(sql)
            #expect(first === again)
            #expect(try again.rows([.integer(8)]) { try $0.integer("value") } == [8], "rebinding a reused statement")
        }
    }
}
