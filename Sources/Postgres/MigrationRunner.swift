/// Brings a database's schema up to date: applies, in order, the ``Migration``s it has not had yet,
/// each in its own transaction, under an advisory lock, so that any number of processes may open
/// the same database at once and each migration is applied exactly once.
///
/// The names of applied migrations are kept in a table (`schema_migrations` unless told otherwise).
/// A database that holds a name the runner does not know was migrated by a newer program, and is
/// refused rather than used.
///
/// ```swift
/// let schema = MigrationRunner([
///     Migration("1-jobs", ["CREATE TABLE jobs (id text PRIMARY KEY, spec bytea NOT NULL)"]),
///     Migration("2-chunks", ["CREATE TABLE chunks (job text REFERENCES jobs, idx int, epoch bigint)"]),
/// ])
/// try schema.migrate(connection)
/// ```
public struct MigrationRunner: Sendable, CustomStringConvertible {
    /// The migrations, in the order they are applied.
    public let migrations: [Migration]
    /// The table of applied migrations' names (in the session's `search_path`).
    public let table: String
    /// The lock every process that migrates this schema takes.
    public let lock: AdvisoryLockKey

    /// Describes a schema.
    /// - Parameters:
    ///   - migrations: every migration so far, oldest first; names must be unique.
    ///   - table: the table that records applied migrations.
    ///   - lock: the advisory lock that serialises migrating; by default named after the table.
    public init(_ migrations: [Migration], table: String = "schema_migrations", lock: AdvisoryLockKey? = nil) {
        precondition(Set(migrations.map(\.name)).count == migrations.count, "two migrations share a name")
        self.migrations = migrations
        self.table = table
        self.lock = lock ?? AdvisoryLockKey("mediajob.migrations.\(table)")
    }

    /// `n migrations recorded in table, under <lock>`.
    public var description: String { "\(migrations.count) migrations recorded in \(table), under \(lock)" }

    /// Applies the migrations `connection`'s database has not had yet.
    ///
    /// When every migration is recorded already, this reads the table and takes no lock. Otherwise
    /// each missing migration runs in a transaction of its own that first takes ``lock``, then checks
    /// again that no other process applied it meanwhile, runs its statements and records its name.
    /// A failed migration is rolled back whole; those before it stay applied.
    /// - Parameter connection: a connection outside any transaction.
    /// - Returns: the names of the migrations this call applied, in order.
    /// - Throws: ``PostgresError`` `.unknownMigrations` when the database holds migrations not in
    ///   this runner; what a migration's statements threw.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> [String] {
        let table = try connection.quotedIdentifier(table)
        if try connection.query("SELECT to_regclass($1) IS NOT NULL AS present", table).first?["present"] == true {
            let applied = try appliedNames(connection, table: table)
            if migrations.allSatisfy({ applied.contains($0.name) }) { return [] }
        }
        var appliedNow: [String] = []
        for migration in migrations {
            let didApply = try connection.withTransaction {
                try connection.lockForTransaction(lock)
                try connection.query("CREATE TABLE IF NOT EXISTS \(table) (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
                guard try !appliedNames(connection, table: table).contains(migration.name) else { return false }
                for statement in migration.statements {
                    try connection.query(statement)
                }
                try connection.query("INSERT INTO \(table) (name) VALUES ($1)", migration.name)
                return true
            }
            if didApply { appliedNow.append(migration.name) }
        }
        return appliedNow
    }

    /// The names the table records.
    /// - Throws: ``PostgresError`` `.unknownMigrations` when one of them is not among ``migrations``.
    private func appliedNames(_ connection: Connection, table: String) throws -> Set<String> {
        let applied = Set(try connection.query("SELECT name FROM \(table)").map { try $0["name"] as String })
        let unknown = applied.subtracting(migrations.map(\.name))
        guard unknown.isEmpty else {
            throw PostgresError(
                .unknownMigrations,
                detail: "the database has migrations this program does not know (\(unknown.sorted().joined(separator: ", "))); "
                    + "a newer version migrated it: use that version",
                target: connection.target
            )
        }
        return applied
    }
}
