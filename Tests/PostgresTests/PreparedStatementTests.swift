import Postgres
import PostgresTestKit
import Testing

/// Named statements are prepared once per session, as the server's `pg_prepared_statements` shows.
struct PreparedStatementTests {
    static let add = PreparedStatement("add_item", "INSERT INTO items (name) VALUES ($1) RETURNING id")

    @Test func aNamedStatementIsPreparedOnceAndRunManyTimes() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query("CREATE TABLE items (id serial PRIMARY KEY, name text)")
            let ids = try ["a", "b'c", "d;e"].map { try connection.query(Self.add, $0)[0]["id"] as Int }
            #expect(ids == [1, 2, 3])
            let prepared = try connection.query("SELECT statement FROM pg_prepared_statements WHERE name = $1", Self.add.name)
            #expect(try prepared.map { try $0["statement"] as String } == [Self.add.sql])
            #expect(try connection.query("SELECT name FROM items ORDER BY id").map { try $0["name"] as String } == ["a", "b'c", "d;e"])
        }
    }

    @Test func twoStatementsUnderOneNameAreRefused() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query(PreparedStatement("one", "SELECT 1 AS v"))
            let error = try #require(throws: PostgresError.self) {
                try connection.query(PreparedStatement("one", "SELECT 2 AS v"))
            }
            #expect(error.kind == .misuse)
            #expect(error.message.contains("\"one\""))
        }
    }

    @Test func aStatementTheServerRefusesCarriesItsSQLStateAndText() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query("CREATE TABLE items (id int PRIMARY KEY)")
            try connection.query("INSERT INTO items VALUES ($1)", 1)
            let error = try #require(throws: PostgresError.self) { try connection.query("INSERT INTO items VALUES ($1)", 1) }
            #expect(error.kind == .statementFailed)
            #expect(error.sqlState == "23505")
            #expect(error.statement == "INSERT INTO items VALUES ($1)")
            #expect(error.message.contains("items_pkey"))
            #expect(!error.isRetryable)
            let syntax = try #require(throws: PostgresError.self) { try connection.query(PreparedStatement("bad", "SELEC 1")) }
            #expect(syntax.sqlState == "42601")
            #expect(try connection.query("SELECT count(*) AS n FROM items")[0]["n"] == 1)
        }
    }
}
