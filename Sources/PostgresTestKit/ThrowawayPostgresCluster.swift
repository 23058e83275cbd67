import Foundation

/// A PostgreSQL server of a test's own, for tests that restart or kill the server: the shared test
/// cluster (``PostgresTestCluster``) serves tests running in parallel, which must not see it go.
///
/// Made by `Scripts/postgres-test-cluster start`, owned by the test process (removed once it ends
/// however it ends), and removed by ``with(_:)`` as soon as the test is done.
public struct ThrowawayPostgresCluster: Sendable {
    /// The cluster's connection URL (with its role's password).
    public let url: String
    /// The cluster's folder (its data, socket and `server.log`).
    public let folder: String

    /// Runs `body` with a new cluster, then stops it and removes its folder.
    /// - Parameter listen: an address and prefix (`10.0.0.1/30`) the server listens on besides
    ///   127.0.0.1, taking password logins from that network.
    /// - Throws: ``PostgresTestClusterUnavailable`` when no cluster could be started; what `body` throws.
    public static func with<T>(listen: String? = nil, _ body: (ThrowawayPostgresCluster) async throws -> T) async throws -> T {
        let output = try PostgresTestCluster.runClusterScript(
            ["start", "--owner-pid", String(getpid())] + (listen.map { ["--listen", $0] } ?? []))
        let cluster = ThrowawayPostgresCluster(
            url: try PostgresTestCluster.exported("MEDIAJOB_TEST_POSTGRES_URL", by: output),
            folder: try PostgresTestCluster.exported("MEDIAJOB_TEST_POSTGRES_DIR", by: output))
        defer { _ = try? PostgresTestCluster.runClusterScript(["stop", cluster.folder]) }
        return try await body(cluster)
    }

    /// `pg_ctl restart -m fast`: the server ends every session and starts again.
    public func restart() throws {
        _ = try PostgresTestCluster.runClusterScript(["server-restart", folder])
    }

    /// Stops the server cleanly (`pg_ctl stop`); ``start()`` starts it again.
    public func stop() throws {
        _ = try PostgresTestCluster.runClusterScript(["server-stop", folder])
    }

    /// Kills the postmaster with SIGKILL, as a crash would, and waits until its processes have gone.
    public func kill() throws {
        _ = try PostgresTestCluster.runClusterScript(["server-kill", folder])
    }

    /// Starts the server again after ``stop()`` or ``kill()`` (after a kill it recovers from its
    /// write-ahead log first).
    public func start() throws {
        _ = try PostgresTestCluster.runClusterScript(["server-start", folder])
    }
}
