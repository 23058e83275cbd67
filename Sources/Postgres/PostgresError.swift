import TaskContract

/// A PostgreSQL call failed: what kind of failure, the server's SQLSTATE and words, the statement,
/// and which server, database and user — never the password.
///
/// Every failure in this module is a ``PostgresError``. Texts that came from libpq pass through
/// ``SecretRedactor`` before they are stored here, so no property, ``description`` or
/// ``debugDescription`` can hold a password given in a connection string or found in a password file.
public struct PostgresError: CategorizedError, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// The connection string is malformed, or no connection could be made or remade.
        case connectionFailed
        /// The connection broke during a call (the server ended the session, or the network went).
        /// ``Connection/reset()`` makes a new session.
        case connectionLost
        /// The server refused the statement; ``PostgresError/sqlState`` says why.
        case statementFailed
        /// The transaction lost a race with another (SQLSTATE 40001 serialization failure or 40P01
        /// deadlock) and was rolled back; running it again can succeed.
        case serializationFailure
        /// A row has no column of that name.
        case unknownColumn
        /// A column's type or text does not fit the Swift type it was read as.
        case typeMismatch
        /// A column is NULL where a value was expected (read it as an optional).
        case unexpectedNull
        /// A parameter cannot be sent: text with a NUL character, which PostgreSQL cannot store.
        case invalidParameter
        /// The database holds migrations this program does not know: a newer program migrated it.
        case unknownMigrations
        /// The bridge was used in a way it does not allow (a nested transaction, a lock outside
        /// one, two statements under one prepared name).
        case misuse
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The server's five-character SQLSTATE (`23505`, `40001`, `57P01`), when the server sent one.
    public var sqlState: String?
    /// libpq's or the server's words, with any password removed.
    public var detail: String
    /// The statement concerned, as written (parameters are never part of it), when one is.
    public var statement: String?
    /// The column concerned, for reading errors.
    public var column: String?
    /// Which server, database and user, when known.
    public var target: ConnectionTarget?

    /// Creates an error; the module's checks create them, tests may too.
    /// - Parameters:
    ///   - kind: what kind of failure this is.
    ///   - sqlState: the server's SQLSTATE, if it sent one.
    ///   - detail: the cause in detail, already free of passwords.
    ///   - statement: the statement concerned.
    ///   - column: the column concerned.
    ///   - target: which server, database and user.
    public init(
        _ kind: Kind, sqlState: String? = nil, detail: String, statement: String? = nil, column: String? = nil,
        target: ConnectionTarget? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.detail = detail
        self.statement = statement
        self.column = column
        self.target = target
    }

    /// Whether running the same transaction again can succeed: true for serialization failures
    /// and deadlocks (SQLSTATE 40001 and 40P01).
    public var isRetryable: Bool { kind == .serializationFailure }

    /// `.resource` for lost connections and lost races, `.noSpace` when the server's disk is full
    /// (SQLSTATE class 53100), `.invalidInput` for parameters PostgreSQL cannot hold, `.internal`
    /// otherwise.
    public var category: FailureCategory {
        switch kind {
        case .connectionFailed, .connectionLost, .serializationFailure: .resource
        case .invalidParameter: .invalidInput
        case .statementFailed where sqlState == "53100": .noSpace
        case .statementFailed where sqlState?.hasPrefix("53") == true: .resource
        default: .internal
        }
    }

    /// What happened, naming the statement, column and server, and what to do.
    public var message: String { advice.map { "\(cause); \($0)" } ?? cause }

    /// What happened, naming the statement, column and server, without ``message``'s advice.
    public var cause: String {
        let at = target.map { " (\($0))" } ?? ""
        let code = sqlState.map { " [SQLSTATE \($0)]" } ?? ""
        let inStatement = statement.map { " in \(Self.summary(of: $0))" } ?? ""
        let named = column.map { "column \"\($0)\"" } ?? "a column"
        switch kind {
        case .connectionFailed:
            return "cannot connect to PostgreSQL\(at): \(detail)"
        case .connectionLost:
            return "the connection to PostgreSQL was lost\(inStatement)\(at)\(code): \(detail)"
        case .statementFailed:
            return "PostgreSQL refused\(inStatement)\(at)\(code): \(detail)"
        case .serializationFailure:
            return "a transaction lost a race with another and was rolled back\(inStatement)\(at)\(code): \(detail)"
        case .unknownColumn, .typeMismatch, .unexpectedNull:
            return "cannot read \(named)\(inStatement): \(detail)"
        case .invalidParameter, .unknownMigrations, .misuse:
            return "\(detail)\(inStatement)\(at)"
        }
    }

    /// What to do next, where the error's kind suggests something.
    private var advice: String? {
        switch kind {
        case .connectionFailed: "check the connection URL and that the server runs"
        case .connectionLost: "reconnect and retry"
        case .serializationFailure: "run it again"
        case .statementFailed, .unknownColumn, .typeMismatch, .unexpectedNull, .invalidParameter, .unknownMigrations, .misuse: nil
        }
    }

    /// The same as ``message``.
    public var description: String { message }

    /// The kind and ``message``.
    public var debugDescription: String { "PostgresError.\(kind): \(message)" }

    /// A statement on one line, shortened to 160 characters.
    private static func summary(of statement: String) -> String {
        let line = statement.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "`" + (line.count > 160 ? line.prefix(157) + "..." : line) + "`"
    }
}
