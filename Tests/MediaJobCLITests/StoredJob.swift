import Foundation
import JobEngine
import SQLiteJobStore

/// What the job store in a test's state folder says about one job, read as another process would.
struct StoredJob {
    let store: SQLiteJobStore
    let id: JobID

    init(_ fixture: CLIFixture, id: String) throws {
        store = try fixture.store()
        self.id = JobID(rawValue: id)
    }

    /// The chunks the store records done, by index.
    var doneChunks: [Int] {
        get throws { try store.chunks(of: id).filter(\.isDone).map(\.index) }
    }

    /// The chunk index of every `checkpoint` line in the journal, in order (one per chunk made
    /// durable; a chunk done twice would appear twice).
    var checkpointedChunks: [Int] {
        get throws { try store.journal(of: id).filter { $0.event == .checkpoint }.compactMap { $0.detail["chunk"].flatMap(Int.init) } }
    }

    /// The detail of the last `ended` line in the journal.
    var lastEnding: [String: String]? {
        get throws { try store.journal(of: id).last { $0.event == .ended }?.detail }
    }

    /// Whether any journal line carries `key` = `value`.
    func journalHas(_ key: String, _ value: String) throws -> Bool {
        try store.journal(of: id).contains { $0.detail[key] == value }
    }

    /// The files left in the job's workspace whose writes never committed.
    var uncommittedFiles: [String] {
        get throws {
            let workspace = try store.job(id)?.workspace ?? ""
            return ((try? FileManager.default.contentsOfDirectory(atPath: workspace)) ?? []).filter { $0.hasPrefix(".tmp-") }
        }
    }
}
