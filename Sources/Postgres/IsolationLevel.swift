/// How much a transaction sees of others running at the same time (PostgreSQL's isolation levels).
public enum IsolationLevel: String, Sendable, CustomStringConvertible {
    /// Each statement sees what was committed before it started (PostgreSQL's default).
    case readCommitted = "READ COMMITTED"
    /// The transaction sees one snapshot throughout; a row changed by another transaction since then
    /// cannot be changed (SQLSTATE 40001).
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one after another; one that could break that is refused (SQLSTATE 40001).
    case serializable = "SERIALIZABLE"

    /// The level's SQL name.
    public var description: String { rawValue }
}
