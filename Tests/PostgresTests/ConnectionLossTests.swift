import Postgres
import PostgresTestKit
import Testing

/// A session the server ends is reported as lost, and `reset` makes a new one with everything the
/// old one was set up with.
struct ConnectionLossTests {
    static let count = PreparedStatement("count_items", "SELECT count(*) AS n FROM items")

    @Test func aTerminatedSessionIsReportedAndResetRecoversItsSetup() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let other = try schema.connect()
            try connection.query("CREATE TABLE items (id int)")
            try connection.listen(schema.name)
            #expect(try connection.query(Self.count)[0]["n"] == 0)
            let before = connection.serverProcessID

            let ended: Bool = try other.query("SELECT pg_terminate_backend($1, 30000) AS ended", before)[0]["ended"]
            #expect(ended, "the server ended the session within 30 s")
            let error = try #require(throws: PostgresError.self) { try connection.query(Self.count) }
            #expect(error.kind == .connectionLost)
            #expect(error.category == .resource)
            #expect(error.message.contains("count_items") || error.message.contains("FROM items"))
            #expect(!connection.isConnected)
            #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }

            try connection.reset()
            #expect(connection.isConnected)
            #expect(connection.serverProcessID != before)
            #expect(try connection.query(Self.count)[0]["n"] == 0, "search_path is set again and the statement prepared again")
            #expect(try connection.query("SELECT current_setting('lock_timeout') AS v")[0]["v"] == "30s")
            try other.notify(schema.name, payload: "after reset")
            #expect(try connection.notifications(until: .now + .seconds(30)).map(\.payload) == ["after reset"])
        }
    }

    @Test func aSessionEndedWhileWaitingForNotificationsIsReported() async throws {
        try await PostgresTestSchema.with { schema in
            let other = try schema.connect()
            let listener = try await schema.connectQueued()
            let process = try await listener.run { connection in
                try connection.listen(schema.name)
                return connection.serverProcessID
            }
            let waiting = listener.start { try $0.notifications(until: .now + .seconds(60)) }
            let ended: Bool = try other.query("SELECT pg_terminate_backend($1, 30000) AS ended", process)[0]["ended"]
            #expect(ended)
            let waited = await outcome { try await waiting.value() }
            guard case .failure(let error as PostgresError) = waited else {
                Issue.record("waiting did not fail: \(waited)")
                return
            }
            #expect(error.kind == .connectionLost)
        }
    }
}
