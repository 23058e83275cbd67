import Foundation
import Postgres

/// A schema of its own in the test cluster's database for one test, so that tests running in
/// parallel never see each other's tables; ``with(_:)-(_)`` drops it with everything in it afterwards.
public struct PostgresTestSchema: Sendable {
    /// The test cluster's URL.
    public let url: String
    /// The schema's name (`test_` and 32 hex digits).
    public let name: String

    private init() throws {
        url = try PostgresTestCluster.url()
        name = "test_" + UUID().uuidString.lowercased().filter { $0 != "-" }
        try Connection(url).query("CREATE SCHEMA \(name)")
    }

    private func drop() {
        _ = try? Connection(url).query("DROP SCHEMA \(name) CASCADE")
    }

    /// Runs `body` with a fresh schema, then drops the schema.
    /// - Throws: ``PostgresTestClusterUnavailable`` when there is no test cluster, ``PostgresError``
    ///   when it refuses, and what `body` throws.
    public static func with<T>(_ body: (PostgresTestSchema) throws -> T) throws -> T {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        return try body(schema)
    }

    /// Runs `body` with a fresh schema, then drops the schema.
    /// - Throws: ``PostgresTestClusterUnavailable`` when there is no test cluster, ``PostgresError``
    ///   when it refuses, and what `body` throws.
    public static func with<T>(_ body: (PostgresTestSchema) async throws -> T) async throws -> T {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        return try await body(schema)
    }

    /// A new connection whose `search_path` is this schema. Its server-side waits end after 30 s
    /// (`lock_timeout`) and its statements after 60 s (`statement_timeout`), so no test waits for
    /// ever on a lock or a statement.
    /// - Parameter idleInTransactionSessionTimeout: as ``Connection/init(_:idleInTransactionSessionTimeout:settings:)`` takes it.
    public func connect(idleInTransactionSessionTimeout: Duration = .seconds(60)) throws -> Connection {
        try Connection(
            url, idleInTransactionSessionTimeout: idleInTransactionSessionTimeout,
            settings: ["search_path": name, "lock_timeout": "30s", "statement_timeout": "60s"]
        )
    }

    /// A new connection used only on a queue of its own, for statements that block.
    public func connectQueued() async throws -> QueuedConnection {
        try await QueuedConnection { try connect() }
    }
}
