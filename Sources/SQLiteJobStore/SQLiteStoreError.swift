import JobEngine
import TaskContract

/// What the SQLite store found wrong in what it holds or was asked, as opposed to a failed
/// SQLite call (``SQLiteError``).
public enum SQLiteStoreError: CategorizedError, Equatable, CustomStringConvertible {
    /// A stored value this program does not know: the column, the value, and the job's row.
    case unknownValue(column: String, value: String, job: String)
    /// No job has that identity.
    case noSuchJob(JobID)
    /// The job has no chunk with that index.
    case noSuchChunk(JobID, index: Int)
    /// The database was made by a newer program: the versions found and known.
    case schemaTooNew(path: String, found: Int, known: Int)
    /// A statement's result has no column of that name (a program error).
    case noSuchColumn(String, statement: String)

    public var category: FailureCategory { .internal }

    public var message: String {
        switch self {
        case .unknownValue(let column, let value, let job):
            "the job store holds a \(column) this program does not know, '\(value)', for job \(job)"
        case .noSuchJob(let id): "the job store has no job \(id)"
        case .noSuchChunk(let id, let index): "the job store has no chunk \(index) in job \(id)"
        case .schemaTooNew(let path, let found, let known):
            "the job store \(path) has schema version \(found), newer than this program knows (\(known)); upgrade the program"
        case .noSuchColumn(let name, let statement): "no column '\(name)' in the result of: \(statement)"
        }
    }

    public var description: String { message }
}
