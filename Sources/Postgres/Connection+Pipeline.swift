import CPostgres

/// Many statements in one round trip (libpq's pipeline mode).
extension Connection {
    /// Runs named statements in one round trip and one transaction: sends them all, then one Sync,
    /// and reads their results (libpq's pipeline mode). Outside a transaction they form one implicit
    /// transaction that the Sync commits, so they take effect together or not at all, with one
    /// commit (one WAL flush where the commit waits for it). Statements not yet prepared in this
    /// session are prepared first, one round trip each.
    /// - Parameter statements: each statement with the values of its `$1`, `$2`, …
    /// - Returns: each statement's rows and count of rows changed, in order.
    /// - Throws: ``PostgresError`` as ``query(_:_:)-(PreparedStatement,_)`` does, for the first
    ///   statement that failed (the others were not applied); `.misuse` inside a transaction, or
    ///   when libpq refuses pipeline mode.
    public func pipeline(_ statements: [(statement: PreparedStatement, parameters: [any PostgresEncodable])]) throws
        -> [QueryResult] {
        guard !isInTransaction else {
            throw PostgresError(
                .misuse, detail: "a pipeline commits its statements itself; none may run inside a transaction",
                target: target
            )
        }
        for entry in statements { try prepareIfNeeded(entry.statement) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(.misuse, detail: "libpq refused pipeline mode: \(PostgresError.libpqMessage(handle))",
                                target: target)
        }
        defer { _ = PQexitPipelineMode(handle) }
        for entry in statements {
            let sent = try withParameters(entry.statement.sql, entry.parameters) { count, values, lengths, formats in
                PQsendQueryPrepared(handle, entry.statement.name, count, values, lengths, formats, 0)
            }
            guard sent == 1 else { throw PostgresError(capturing: nil, connection: handle, statement: entry.statement.sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw PostgresError(capturing: nil, connection: handle, statement: nil) }
        var results: [QueryResult] = []
        var failure: PostgresError?
        for entry in statements {
            let result = PQgetResult(handle)
            // Each statement's results end with a NULL, read before the next statement's.
            if result != nil { while let extra = PQgetResult(handle) { PQclear(extra) } }
            do {
                results.append(try PostgresError.check(result, connection: handle, statement: entry.statement.sql))
            } catch let error as PostgresError {
                if error.kind == .connectionLost { throw error }
                failure = failure ?? error
            }
        }
        try readSync()
        if let failure { throw failure }
        return results
    }

    /// Reads the pipeline's Sync: its result ends the pipeline (an aborted one included).
    private func readSync() throws {
        while true {
            guard let result = PQgetResult(handle) else {
                throw PostgresError(capturing: nil, connection: handle, statement: nil)
            }
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC { return }
        }
    }
}
