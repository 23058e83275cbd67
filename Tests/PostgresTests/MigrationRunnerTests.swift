import Postgres
import PostgresTestKit
import Testing

/// Named migrations, applied once each, in order, under an advisory lock.
struct MigrationRunnerTests {
    /// Three migrations; each creates a table (which would fail if run twice) and logs itself with
    /// the server process that ran it.
    static func migrations(count: Int = 3) -> [Migration] {
        (1...count).map { number in
            Migration("\(number)-table-\(number)", [
                "CREATE TABLE IF NOT EXISTS migration_log (name text NOT NULL, pid int NOT NULL)",
                "CREATE TABLE table_\(number) (id int PRIMARY KEY)",
                "INSERT INTO migration_log VALUES ('\(number)-table-\(number)', pg_backend_pid())",
            ])
        }
    }

    static func runner(_ schema: PostgresTestSchema, _ migrations: [Migration]) -> MigrationRunner {
        MigrationRunner(migrations, lock: AdvisoryLockKey("migrations of \(schema.name)"))
    }

    static func logged(_ connection: Connection) throws -> [String] {
        try connection.query("SELECT name FROM migration_log ORDER BY name").map { try $0["name"] as String }
    }

    @Test func aFreshDatabaseGetsEveryMigrationInOrderAndOnlyOnce() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let runner = Self.runner(schema, Self.migrations())
            #expect(try runner.migrate(connection) == ["1-table-1", "2-table-2", "3-table-3"])
            #expect(try runner.migrate(connection) == [])
            #expect(try runner.migrate(try schema.connect()) == [])
            #expect(try Self.logged(connection) == ["1-table-1", "2-table-2", "3-table-3"])
            let recorded = try connection.query("SELECT name FROM schema_migrations ORDER BY applied_at, name")
            #expect(try recorded.map { try $0["name"] as String } == ["1-table-1", "2-table-2", "3-table-3"])
        }
    }

    @Test func aDatabaseMigratedByAnOlderProgramGetsOnlyTheNewMigrations() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            #expect(try Self.runner(schema, Self.migrations(count: 1)).migrate(connection) == ["1-table-1"])
            try connection.query("INSERT INTO table_1 VALUES ($1)", 7)
            #expect(try Self.runner(schema, Self.migrations(count: 3)).migrate(connection) == ["2-table-2", "3-table-3"])
            #expect(try connection.query("SELECT id FROM table_1")[0]["id"] == 7, "the old data is still there")
        }
    }

    @Test func aFailedMigrationIsRolledBackWholeAndTheOnesBeforeItStay() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let broken = Migration("2-broken", ["CREATE TABLE half_done (id int)", "CREATE TABLE table_1 (id int)"])
            let error = try #require(throws: PostgresError.self) {
                try Self.runner(schema, Self.migrations(count: 1) + [broken]).migrate(connection)
            }
            #expect(error.sqlState == "42P07", "table_1 exists already")
            #expect(try connection.query("SELECT name FROM schema_migrations").map { try $0["name"] as String } == ["1-table-1"])
            #expect(try connection.query("SELECT to_regclass('half_done') IS NULL AS gone")[0]["gone"] == true)
            #expect(!connection.isInTransaction)
        }
    }

    @Test func aDatabaseFromANewerProgramIsRefusedNamingWhatItDoesNotKnow() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try Self.runner(schema, Self.migrations(count: 2)).migrate(connection)
            let error = try #require(throws: PostgresError.self) {
                try Self.runner(schema, Self.migrations(count: 1)).migrate(connection)
            }
            #expect(error.kind == .unknownMigrations)
            #expect(error.message.contains("2-table-2"))
        }
    }

    @Test func twoConnectionsRacingToMigrateApplyEachMigrationExactlyOnce() async throws {
        try await PostgresTestSchema.with { schema in
            let holder = try schema.connect()
            let runner = Self.runner(schema, Self.migrations())
            let racers = [try await schema.connectQueued(), try await schema.connectQueued()]
            let processes = try await [racers[0].run { $0.serverProcessID }, racers[1].run { $0.serverProcessID }]

            // Hold the migration lock, so both racers are waiting for it before either can start.
            try holder.query("BEGIN")
            try holder.lockForTransaction(runner.lock)
            let first = racers[0].start { try runner.migrate($0) }
            let second = racers[1].start { try runner.migrate($0) }
            try await waitUntil("both racers wait for the migration lock") {
                try holder.query(
                    "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = ANY($1::int[])",
                    "{\(processes[0]),\(processes[1])}"
                )[0]["n"] == 2
            }
            try holder.query("COMMIT")

            let applied = try await [first.value(), second.value()]
            #expect((applied[0] + applied[1]).sorted() == ["1-table-1", "2-table-2", "3-table-3"], "\(applied)")
            #expect(try Self.logged(holder) == ["1-table-1", "2-table-2", "3-table-3"], "each migration ran once")
            let ranBy = try holder.query("SELECT name, pid FROM migration_log").map { (try $0["name"] as String, Int32(try $0["pid"] as Int)) }
            for (name, process) in ranBy {
                let racer = processes.firstIndex(of: process)
                #expect(racer.map { applied[$0].contains(name) } == true, "\(name) was logged by the racer that reported it")
            }
        }
    }
}
