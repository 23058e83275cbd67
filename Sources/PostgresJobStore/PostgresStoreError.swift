import JobEngine
import TaskContract

/// What only the PostgreSQL store meets, beyond a failed PostgreSQL call (`PostgresError`) and
/// what any store may find wrong (``JobStoreError``).
public enum PostgresStoreError: CategorizedError, Equatable, CustomStringConvertible {
    /// A stored JSON value (request, spec, progress, chunk plan, journal detail) cannot be read.
    case unreadableValue(column: String, job: String, reason: String)

    public var category: FailureCategory { .internal }

    public var message: String {
        switch self {
        case .unreadableValue(let column, let job, let reason):
            "the job store's \(column) of job \(job) cannot be read: \(reason)"
        }
    }

    public var description: String { message }
}
