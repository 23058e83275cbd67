import JobEngine
import TaskContract

/// What only the SQLite store meets, beyond a failed SQLite call (``SQLiteError``) and what any
/// store may find wrong (``JobStoreError``).
public enum SQLiteStoreError: CategorizedError, Equatable, CustomStringConvertible {
    /// The database was made by a newer program: the versions found and known.
    case schemaTooNew(path: String, found: Int, known: Int)
    /// A statement's result has no column of that name (a program error).
    case noSuchColumn(String, statement: String)

    public var category: FailureCategory { .internal }

    public var message: String {
        switch self {
        case .schemaTooNew(let path, let found, let known):
            "the job store \(path) has schema version \(found), newer than this program knows (\(known)); upgrade the program"
        case .noSuchColumn(let name, let statement): "no column '\(name)' in the result of: \(statement)"
        }
    }

    public var description: String { message }
}
