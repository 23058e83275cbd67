/// One value of a result row as the server sent it (text format), with what is needed to read
/// it and to name it in an error.
public struct PostgresCell: Sendable {
    /// The column's name.
    public let column: String
    /// The column's type.
    public let type: PostgresType
    /// The value in PostgreSQL's text format; `nil` for NULL.
    public let text: String?
    /// The statement that produced the row, for errors.
    let statement: String

    /// The text of a non-NULL value whose type is one of `types`.
    /// - Parameters:
    ///   - types: the column types the Swift type can be read from.
    ///   - swiftType: the Swift type's name, for the error.
    /// - Throws: ``PostgresError`` `.unexpectedNull` for NULL, `.typeMismatch` for another type.
    public func text(ofTypes types: Set<PostgresType>, readingAs swiftType: String) throws -> String {
        guard let text else {
            throw PostgresError(
                .unexpectedNull, detail: "it is NULL, not \(swiftType) (read it as \(swiftType)?)",
                statement: statement, column: column
            )
        }
        guard types.contains(type) else { throw mismatch(readingAs: swiftType) }
        return text
    }

    /// The error for a value that cannot be read as `swiftType`.
    public func mismatch(readingAs swiftType: String) -> PostgresError {
        let value = text.map { $0.count > 40 ? String($0.prefix(37)) + "..." : $0 } ?? "NULL"
        return PostgresError(
            .typeMismatch, detail: "its type is \(type) (value \(value.debugDescription)), which cannot be read as \(swiftType)",
            statement: statement, column: column
        )
    }
}
