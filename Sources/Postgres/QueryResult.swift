import CPostgres

/// What a statement returned: its rows, read by column name, and how many rows it changed.
///
/// Owns libpq's `PGresult`, cleared when the last reference (this object or one of its ``Row``s)
/// goes. A result is read-only, so it and its rows may be read from any thread.
public final class QueryResult: @unchecked Sendable, RandomAccessCollection, CustomStringConvertible {
    private let handle: OpaquePointer
    /// The statement that produced the result, for errors.
    public let statement: String

    /// Takes ownership of a successful result.
    init(_ handle: OpaquePointer, statement: String) {
        self.handle = handle
        self.statement = statement
    }

    deinit {
        PQclear(handle)
    }

    /// The first row's position: 0.
    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int { Int(PQntuples(handle)) }

    /// The row at `index`.
    public subscript(index: Int) -> Row {
        precondition(indices.contains(index), "row \(index) is out of range (the result has \(count) rows)")
        return Row(result: self, index: Int32(index))
    }

    /// The columns' names, in the order the statement gives them.
    public var columnNames: [String] {
        (0..<PQnfields(handle)).map { String(cString: PQfname(handle, $0)) }
    }

    /// How many rows an `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `SELECT` or `MOVE` handled; 0 for
    /// other statements.
    public var rowsAffected: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The command tag the server sent (`INSERT 0 1`, `COMMIT`, `ROLLBACK`).
    var commandStatus: String { String(cString: PQcmdStatus(handle)) }

    /// `n rows (a, b, c) from `statement``.
    public var description: String {
        "\(count) rows (\(columnNames.joined(separator: ", "))) from `\(statement)`"
    }

    /// The value at `row` and `column`, with its column's name and type.
    /// - Throws: ``PostgresError`` `.unknownColumn` when the result has no column of that name.
    func cell(row: Int32, column name: String) throws -> PostgresCell {
        // PQfnumber folds unquoted names to lower case, as SQL does; quoted, a name matches exactly.
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let column = PQfnumber(handle, quoted)
        guard column >= 0 else {
            let known = columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw PostgresError(
                .unknownColumn, detail: "the result has no such column (it has \(known.isEmpty ? "none" : known))",
                statement: statement, column: name
            )
        }
        let isNull = PQgetisnull(handle, row, column) == 1
        return PostgresCell(
            column: name, type: PostgresType(rawValue: PQftype(handle, column)),
            text: isNull ? nil : String(cString: PQgetvalue(handle, row, column)), statement: statement
        )
    }
}
