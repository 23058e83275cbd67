import CPostgres
import Foundation

/// The one funnel through which libpq's failures become ``PostgresError``s.
extension PostgresError {
    /// Takes a statement's result: returns it when it succeeded; otherwise clears it and throws
    /// what libpq and the server said, with the SQLSTATE, the statement and the target.
    /// - Parameters:
    ///   - result: what `PQexecParams`, `PQprepare` or `PQexecPrepared` returned (nil when libpq
    ///     could not even make a result).
    ///   - connection: the connection the statement ran on.
    ///   - statement: the statement, as written.
    @discardableResult
    static func check(_ result: OpaquePointer?, connection: OpaquePointer, statement: String) throws -> QueryResult {
        if let result {
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                return QueryResult(result, statement: statement)
            default:
                break
            }
        }
        let error = PostgresError(capturing: result, connection: connection, statement: statement)
        PQclear(result)
        throw error
    }

    /// Captures a failed statement: the SQLSTATE and the server's words (message, detail, hint)
    /// from the result, else libpq's message; `.connectionLost` when the connection has broken,
    /// `.serializationFailure` for SQLSTATE 40001 and 40P01.
    init(capturing result: OpaquePointer?, connection: OpaquePointer, statement: String?) {
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let sqlState = field("C")
        let serverWords = [field("M"), field("D").map { "(\($0))" }, field("H").map { "hint: \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
        let words = serverWords.isEmpty ? Self.libpqMessage(connection) : serverWords
        let kind: Kind =
            if PQstatus(connection) == CONNECTION_BAD { .connectionLost }
            else if sqlState == "40001" || sqlState == "40P01" { .serializationFailure }
            else { .statementFailed }
        self.init(
            kind, sqlState: sqlState, detail: SecretRedactor(connection: connection).redact(words),
            statement: statement, target: ConnectionTarget(connection)
        )
    }

    /// Captures why a connection could not be made (or remade) on `connection`, removing every
    /// password `redactor` knows and the one libpq used.
    init(connecting connection: OpaquePointer, redactor: SecretRedactor) {
        let used = SecretRedactor(connection: connection)
        let detail = used.redact(redactor.redact(Self.libpqMessage(connection)))
        self.init(.connectionFailed, detail: detail, target: used.redact(redactor.redact(ConnectionTarget(connection))))
    }

    /// Captures a broken connection found outside a statement (while waiting for notifications).
    init(lostConnection connection: OpaquePointer, while doing: String) {
        let detail = SecretRedactor(connection: connection).redact(Self.libpqMessage(connection))
        self.init(.connectionLost, detail: "\(detail) (while \(doing))", target: ConnectionTarget(connection))
    }

    /// libpq's last message for the connection on one line, or a stand-in when it has none.
    static func libpqMessage(_ connection: OpaquePointer) -> String {
        let message = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return line.isEmpty ? "libpq gave no reason" : line
    }
}
