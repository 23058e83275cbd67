/// A statement prepared once per connection under a name and run many times.
///
/// Declare a store's statements as constants; ``Connection/query(_:_:)-(PreparedStatement,_)``
/// prepares each on first use on a connection (and again after ``Connection/reset()``).
///
/// ```swift
/// static let claim = PreparedStatement("claim_chunk", "UPDATE chunks SET … WHERE … RETURNING idx")
/// ```
public struct PreparedStatement: Sendable, Hashable, CustomStringConvertible {
    /// The name the server knows it by on each connection.
    public let name: String
    /// The statement, with `$1`, `$2`, … for its parameters.
    public let sql: String

    /// Names a statement.
    /// - Parameters:
    ///   - name: unique among the statements used on one connection.
    ///   - sql: one statement, with `$1`, `$2`, … for its parameters.
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }

    /// `name: sql`.
    public var description: String { "\(name): \(sql)" }
}
