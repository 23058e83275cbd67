import CSQLite
import Glibc
import JobEngine
import TaskContract

/// A SQLite call failed: the result code, SQLite's message, and the statement or step.
public struct SQLiteError: CategorizedError, Equatable, CustomStringConvertible {
    /// SQLite's primary result code.
    public var code: Int32
    /// SQLite's message at the failure site.
    public var detail: String
    /// What was being done.
    public var context: String

    public var category: FailureCategory {
        switch code & 0xff {
        case SQLITE_FULL: .noSpace
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY: .io
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM: .resource
        default: .internal
        }
    }

    public var message: String {
        switch code & 0xff {
        case SQLITE_FULL: "no space left for the job store (\(context)); free some space, then resume"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "the job store is damaged (\(context)): \(detail); move the state folder away to start afresh"
        default: "job store error while \(context): \(detail)"
        }
    }

    public var description: String { message }
}
