import TaskContract

/// What a job store found wrong in what it holds or was asked, whichever store it is, as opposed
/// to a failed call of its database (each store has its own errors for those, and for what only
/// it can meet).
public enum JobStoreError: CategorizedError, Equatable, CustomStringConvertible {
    /// A stored value this program does not know: the column, the value, and the job's row.
    case unknownValue(column: String, value: String, job: String)
    /// No job has that identity.
    case noSuchJob(JobID)
    /// The job has no chunk with that index.
    case noSuchChunk(JobID, index: Int)

    public var category: FailureCategory { .internal }

    public var message: String {
        switch self {
        case .unknownValue(let column, let value, let job):
            "the job store holds a \(column) this program does not know, '\(value)', for job \(job)"
        case .noSuchJob(let id): "the job store has no job \(id)"
        case .noSuchChunk(let id, let index): "the job store has no chunk \(index) in job \(id)"
        }
    }

    public var description: String { message }
}
