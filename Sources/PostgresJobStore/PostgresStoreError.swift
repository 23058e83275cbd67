import JobEngine
import TaskContract

/// What the PostgreSQL store found wrong in what it holds or was asked, as opposed to a failed
/// PostgreSQL call (`PostgresError`).
public enum PostgresStoreError: CategorizedError, Equatable, CustomStringConvertible {
    /// A stored value this program does not know: the column, the value, and the job's row.
    case unknownValue(column: String, value: String, job: String)
    /// No job has that identity.
    case noSuchJob(JobID)
    /// The job has no chunk with that index.
    case noSuchChunk(JobID, index: Int)
    /// A stored JSON value (request, spec, progress, chunk plan, journal detail) cannot be read.
    case unreadableValue(column: String, job: String, reason: String)

    public var category: FailureCategory { .internal }

    public var message: String {
        switch self {
        case .unknownValue(let column, let value, let job):
            "the job store holds a \(column) this program does not know, '\(value)', for job \(job)"
        case .noSuchJob(let id): "the job store has no job \(id)"
        case .noSuchChunk(let id, let index): "the job store has no chunk \(index) in job \(id)"
        case .unreadableValue(let column, let job, let reason):
            "the job store's \(column) of job \(job) cannot be read: \(reason)"
        }
    }

    public var description: String { message }
}
