import CSQLite
import Glibc
import JobEngine
import TaskContract

/// A SQLite call failed: SQLite's extended result code and message, and the statement (or the
/// step, such as opening the file) that failed.
public struct SQLiteError: CategorizedError, Equatable, CustomStringConvertible {
    /// SQLite's extended result code, for example `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public var extendedCode: Int32
    /// SQLite's message at the failure site.
    public var sqliteMessage: String
    /// The SQL that failed, or what was being done when it was not a statement.
    public var statement: String

    public init(extendedCode: Int32, sqliteMessage: String, statement: String) {
        self.extendedCode = extendedCode
        self.sqliteMessage = sqliteMessage
        self.statement = statement
    }

    /// The primary result code, for example `SQLITE_CONSTRAINT`.
    public var code: Int32 { extendedCode & 0xff }

    public var category: FailureCategory {
        switch code {
        case SQLITE_FULL: .noSpace
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY: .io
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM: .resource
        default: .internal
        }
    }

    public var message: String {
        switch code {
        case SQLITE_FULL: "no space left for the job store (\(statement)); free some space, then resume"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            "the job store is damaged (\(statement)): \(sqliteMessage); move the state folder away to start afresh"
        default: "job store error \(extendedCode) in \(statement): \(sqliteMessage)"
        }
    }

    public var description: String { message }
}
