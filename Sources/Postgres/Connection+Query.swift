import CPostgres

/// Running statements: always with parameters, never with values pasted into the SQL.
extension Connection {
    /// Runs one statement with parameters `$1`, `$2`, … (`PQexecParams`).
    ///
    /// ```swift
    /// try connection.query("UPDATE chunks SET state = 'done' WHERE job = $1 AND epoch = $2", job, epoch)
    /// ```
    /// - Parameters:
    ///   - sql: one statement; values go in parameters, never into this text.
    ///   - parameters: the values of `$1`, `$2`, …; `nil` optionals are NULL.
    /// - Returns: the rows, and how many rows changed.
    /// - Throws: ``PostgresError``: `.statementFailed` with the server's SQLSTATE, `.serializationFailure`,
    ///   `.connectionLost`, or `.invalidParameter` for text with a NUL character.
    @discardableResult
    public func query(_ sql: String, _ parameters: any PostgresEncodable...) throws -> QueryResult {
        try run(sql, parameters) { count, values, lengths, formats in
            PQexecParams(handle, sql, count, nil, values, lengths, formats, 0)
        }
    }

    /// Runs a named statement, preparing it in this session on first use (`PQprepare`, then
    /// `PQexecPrepared`).
    /// - Parameters:
    ///   - statement: the statement and its name.
    ///   - parameters: the values of `$1`, `$2`, …; `nil` optionals are NULL.
    /// - Returns: the rows, and how many rows changed.
    /// - Throws: ``PostgresError`` as ``query(_:_:)-(String,_)`` does, and `.misuse` when another
    ///   statement was prepared under the same name.
    @discardableResult
    public func query(_ statement: PreparedStatement, _ parameters: any PostgresEncodable...) throws -> QueryResult {
        try prepareIfNeeded(statement)
        return try run(statement.sql, parameters) { count, values, lengths, formats in
            PQexecPrepared(handle, statement.name, count, values, lengths, formats, 0)
        }
    }

    /// Prepares `statement` unless this session already has it.
    func prepareIfNeeded(_ statement: PreparedStatement) throws {
        if let prepared = preparedStatements[statement.name] {
            guard prepared == statement.sql else {
                throw PostgresError(
                    .misuse, detail: "two statements use the prepared-statement name \(statement.name.debugDescription)",
                    statement: statement.sql, target: target
                )
            }
            return
        }
        try PostgresError.check(PQprepare(handle, statement.name, statement.sql, 0, nil), connection: handle, statement: statement.sql)
        preparedStatements[statement.name] = statement.sql
    }

    /// Makes the call with the parameters laid out as libpq wants them (``withParameters(_:_:_:)``)
    /// and checks its result.
    private func run(
        _ sql: String, _ parameters: [any PostgresEncodable],
        _ call: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> OpaquePointer?
    ) throws -> QueryResult {
        try withParameters(sql, parameters) { count, values, lengths, formats in
            try PostgresError.check(call(count, values, lengths, formats), connection: handle, statement: sql)
        }
    }

    /// Lays the parameters out as libpq wants them (text as NUL-terminated UTF-8, bytes in binary
    /// format with their length) for the length of `call`.
    func withParameters<T>(
        _ sql: String, _ parameters: [any PostgresEncodable],
        _ call: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) throws -> T
    ) throws -> T {
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { buffers.forEach { $0.deallocate() } }
        var values: [UnsafePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for (offset, parameter) in parameters.enumerated() {
            let bytes: [UInt8]
            switch parameter.postgresValue {
            case .null:
                values.append(nil)
                lengths.append(0)
                formats.append(0)
                continue
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    throw PostgresError(
                        .invalidParameter, detail: "parameter $\(offset + 1) contains a NUL character, which PostgreSQL text cannot hold",
                        statement: sql, target: target
                    )
                }
                bytes = Array(text.utf8) + [0]
                formats.append(0)
            case .bytes(let data):
                bytes = Array(data)
                formats.append(1)
            }
            guard bytes.count <= Int32.max else {
                throw PostgresError(
                    .invalidParameter, detail: "parameter $\(offset + 1) is \(bytes.count) bytes, more than libpq can send",
                    statement: sql, target: target
                )
            }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            buffers.append(buffer)
            buffer.copyBytes(from: bytes)
            values.append(UnsafePointer(buffer.baseAddress!.assumingMemoryBound(to: CChar.self)))
            lengths.append(Int32(bytes.count))
        }
        return try call(Int32(parameters.count), values, lengths, formats)
    }
}
