import Postgres
import PostgresTestKit
import Testing

/// `pipeline` sends many statements in one round trip and commits them together, or none of them.
struct PipelineTests {
    static let add = PreparedStatement("pipeline_test_add", "INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id")
    static let count = PreparedStatement("pipeline_test_count", "SELECT count(*)::int AS n FROM items WHERE id = $1")

    private func itemsTable(in schema: PostgresTestSchema) throws -> Connection {
        let connection = try schema.connect()
        try connection.query("CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)")
        return connection
    }

    @Test func everyStatementRunsInOrderAndAnswersItsOwnRows() throws {
        try PostgresTestSchema.with { schema in
            let connection = try itemsTable(in: schema)
            let results = try connection.pipeline([
                (Self.add, [1, "one; DROP TABLE items; --"]), (Self.add, [2, "två"]), (Self.count, [1]), (Self.count, [3]),
            ])
            let added: [Int] = try results[0...1].map { try $0[0]["id"] }
            let counted: [Int] = try results[2...3].map { try $0[0]["n"] }
            #expect(added == [1, 2])
            #expect(counted == [1, 0])
            let names: [String] = try schema.connect().query("SELECT name FROM items ORDER BY id").map { try $0["name"] }
            #expect(names == ["one; DROP TABLE items; --", "två"], "committed, and parameters went through untouched")
            #expect(!connection.isInTransaction)
            let after: Int = try connection.query(Self.count, 2)[0]["n"]
            #expect(after == 1, "the connection works as before after a pipeline")
        }
    }

    @Test func aFailedStatementLeavesNoneApplied() throws {
        try PostgresTestSchema.with { schema in
            let connection = try itemsTable(in: schema)
            #expect(throws: PostgresError.self) {
                try connection.pipeline([(Self.add, [1, "a"]), (Self.add, [1, "again"]), (Self.add, [2, "b"])])
            }
            let left: Int = try schema.connect().query("SELECT count(*)::int AS n FROM items")[0]["n"]
            #expect(left == 0)
            #expect(!connection.isInTransaction)
            #expect(try connection.pipeline([(Self.add, [3, "c"])]).count == 1, "the next pipeline runs")
        }
    }

    @Test func theFirstFailureIsTheOneReported() throws {
        try PostgresTestSchema.with { schema in
            let connection = try itemsTable(in: schema)
            do {
                _ = try connection.pipeline([(Self.add, [1, "a"]), (Self.add, [1, "again"]), (Self.count, [1])])
                Issue.record("a duplicate key went through")
            } catch let error as PostgresError {
                #expect(error.sqlState == "23505", "\(error)")
            }
        }
    }

    @Test func aPipelineIsRefusedInsideATransaction() throws {
        try PostgresTestSchema.with { schema in
            let connection = try itemsTable(in: schema)
            try connection.withTransaction {
                #expect(throws: PostgresError.self) { try connection.pipeline([(Self.add, [1, "a"])]) }
            }
            let left: Int = try schema.connect().query("SELECT count(*)::int AS n FROM items")[0]["n"]
            #expect(left == 0)
        }
    }
}
