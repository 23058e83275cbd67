/// Advisory locks: locks on names that the application chooses, held by transactions.
extension Connection {
    /// Waits for the advisory lock `key` (`pg_advisory_xact_lock`); the transaction holds it until
    /// it commits or rolls back.
    /// - Parameter key: the lock.
    /// - Throws: ``PostgresError`` `.misuse` outside a transaction (the lock would end at once);
    ///   `.serializationFailure` when waiting would deadlock.
    public func lockForTransaction(_ key: AdvisoryLockKey) throws {
        guard isInTransaction else {
            throw PostgresError(
                .misuse, detail: "\(key) can only be taken inside a transaction (use withTransaction)", target: target
            )
        }
        try query("SELECT pg_advisory_xact_lock($1::bigint)", key.value)
    }
}
