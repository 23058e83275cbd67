import CPostgres

/// Transactions: all of a closure's statements, or none of them.
extension Connection {
    /// Runs `body` in one transaction: `BEGIN`, then `COMMIT` when `body` returns, `ROLLBACK` when it
    /// throws.
    ///
    /// Keep media work out of `body`: a transaction holds its locks until it ends, and the server ends
    /// a session left idle in one (`idle_in_transaction_session_timeout`).
    /// - Parameters:
    ///   - isolation: the transaction's isolation level.
    ///   - body: the transaction's work, on this connection.
    /// - Returns: what `body` returned, once committed.
    /// - Throws: what `body` threw (after the rollback); ``PostgresError`` `.serializationFailure`
    ///   when the transaction lost a race (``PostgresError/isRetryable``: run it again);
    ///   `.statementFailed` with SQLSTATE 25P02 when a statement inside failed and `body` went on, so
    ///   `COMMIT` rolled back; `.misuse` when a transaction is already open.
    @discardableResult
    public func withTransaction<T>(_ isolation: IsolationLevel = .readCommitted, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw PostgresError(
                .misuse, detail: "a transaction is already open on this connection; transactions do not nest",
                target: target
            )
        }
        try query("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        do {
            let value = try body()
            let commit = try query("COMMIT")
            guard commit.commandStatus == "COMMIT" else {
                throw PostgresError(
                    .statementFailed, sqlState: "25P02",
                    detail: "a statement in the transaction failed, so COMMIT rolled the whole transaction back",
                    statement: "COMMIT", target: target
                )
            }
            return value
        } catch {
            if isInTransaction { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Whether a transaction is open (or failed and not yet ended) on this connection.
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }
}
