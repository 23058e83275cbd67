/// One named, versioned change to a database's schema: statements run together in one transaction.
///
/// Names are permanent: once a program has shipped a migration, later programs keep it, under the
/// same name and at the same place in their list, and add new ones after it.
public struct Migration: Sendable, Hashable, CustomStringConvertible {
    /// The migration's name, stored in the migrations table once applied (`"1-jobs-and-chunks"`).
    public let name: String
    /// Its statements, run in order, each on its own (one statement per string).
    public let statements: [String]

    /// Names a migration.
    /// - Parameters:
    ///   - name: unique among the migrations of one ``MigrationRunner``.
    ///   - statements: one statement per string.
    public init(_ name: String, _ statements: [String]) {
        self.name = name
        self.statements = statements
    }

    /// `migration "name" (n statements)`.
    public var description: String { "migration \(name.debugDescription) (\(statements.count) statements)" }
}
