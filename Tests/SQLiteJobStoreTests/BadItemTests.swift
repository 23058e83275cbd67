import Foundation
import JobEngine
import JobStoreConformance
@testable import SQLiteJobStore
import Testing

/// What the SQLite store adds to the bad-item clauses of the store contract: an outcome it does not
/// know is refused, and a version-3 store gains the table.
@Suite struct SQLiteBadItemTests {
    private let corrupt = ItemFailure(item: "assets[1] (a.jpg)", reason: "the file is truncated")

    private func checkpoint(_ job: JobRecord, chunk: Int, skipped: [ItemFailure]) -> Checkpoint {
        Checkpoint(jobID: job.id, chunkIndex: chunk, stage: .render, kind: "export", costSeconds: 1, executor: "cpu",
                   progress: progress(after: job.progress, total: 3, stage: .render, cost: 1), skipped: skipped)
    }

    @Test func anOutcomeThisProgramDoesNotKnowIsAnErrorNamingIt() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            try store.recordBadItems([corrupt], outcome: .failed, of: job.id, chunk: 0)
            try SQLiteDatabase(path: path).execute("UPDATE bad_items SET outcome = 'shrugged'")
            #expect(throws: JobStoreError.unknownValue(column: "bad item outcome", value: "shrugged", job: job.id.rawValue)) {
                try store.badItems(of: job.id)
            }
        }
    }

    @Test func aVersionThreeStoreMigratesWithItsJobAndGainsBadItems() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 3)
                original = try old.insert(try makeJob(), chunks: makeChunks(2))
                try SQLiteDatabase(path: path).execute("UPDATE chunks SET done = 1, executor = 'cpu' WHERE idx = 0")
                #expect(throws: SQLiteError.self) { try old.badItems(of: original.id) }
            }

            let store = try SQLiteJobStore(path: path)
            #expect(try store.schemaVersion == SQLiteSchema.latest)
            #expect(try store.chunks(of: original.id).map(\.isDone) == [true, false])
            #expect(try store.badItems(of: original.id).isEmpty)
            try store.checkpoint(checkpoint(original, chunk: 1, skipped: [corrupt]))
            #expect(try store.badItems(of: original.id).map(\.item) == [corrupt.item])
            #expect(try store.integrityCheck() == ["ok"])
        }
    }
}
