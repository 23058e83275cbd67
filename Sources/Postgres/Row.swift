/// One row of a ``QueryResult``, read by column name.
///
/// ```swift
/// let attempt: Int64 = try row["attempt"]
/// let owner: String? = try row["lease_owner"]   // NULL reads as nil
/// ```
public struct Row: Sendable, CustomStringConvertible {
    /// The result the row belongs to; kept alive as long as the row is.
    public let result: QueryResult
    /// The row's position in the result.
    let index: Int32

    /// The value of the column named `column` (exactly as the statement names it), as `T`.
    /// - Throws: ``PostgresError`` naming the column: `.unknownColumn`, `.typeMismatch`, or
    ///   `.unexpectedNull` when the value is NULL and `T` is not optional.
    public subscript<T: PostgresDecodable>(_ column: String) -> T {
        get throws { try T.decode(from: result.cell(row: index, column: column)) }
    }

    /// `row n of <the result's description>`.
    public var description: String { "row \(index) of \(result)" }
}
