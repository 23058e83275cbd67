import Foundation

/// The PostgreSQL server that tests use: the one `MEDIAJOB_TEST_POSTGRES_URL` names, or, outside CI,
/// a throwaway cluster this test process starts on first use.
///
/// `Scripts/test` (what CI runs) starts a cluster with `Scripts/postgres-test-cluster start`, exports
/// the variable and stops the cluster afterwards. A developer running `swift test` alone needs
/// nothing more: the first test that asks starts a cluster through the same script, owned by the
/// test process, which stops and removes it once the process has ended. In CI (`CI` set) a missing
/// variable is a failure, not a reason to start one quietly.
public enum PostgresTestCluster {
    /// The test cluster's connection URL (with the test role's password).
    /// - Throws: ``PostgresTestClusterUnavailable``, saying what to run, when there is no cluster
    ///   and none could be started.
    public static func url() throws -> String {
        try shared.get()
    }

    /// Found or started once per process.
    private static let shared = Result { try locateOrStart() }

    private static let variable = "MEDIAJOB_TEST_POSTGRES_URL"

    private static func locateOrStart() throws(PostgresTestClusterUnavailable) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment[variable], !url.isEmpty { return url }
        guard environment["CI"] == nil else {
            throw PostgresTestClusterUnavailable(
                "\(variable) is not set; CI runs the tests through Scripts/test, which starts a throwaway PostgreSQL "
                    + "and sets it"
            )
        }
        return try exported(variable, by: runClusterScript(["start", "--owner-pid", String(getpid())]))
    }

    /// The value `Scripts/postgres-test-cluster start` printed for `variable` in its `export` lines.
    static func exported(_ variable: String, by output: String) throws(PostgresTestClusterUnavailable) -> String {
        let prefix = "export \(variable)="
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
            throw PostgresTestClusterUnavailable("Scripts/postgres-test-cluster start printed no \(variable)")
        }
        return String(line.dropFirst(prefix.count))
    }

    /// Runs `Scripts/postgres-test-cluster arguments…` and returns what it printed; gives it two minutes.
    static func runClusterScript(_ arguments: [String]) throws(PostgresTestClusterUnavailable) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("Scripts/postgres-test-cluster")
        let process = Process()
        process.executableURL = script
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            throw PostgresTestClusterUnavailable("cannot run \(script.path): \(error)")
        }
        guard ended.wait(timeout: .now() + 120) == .success else {
            process.terminate()
            throw PostgresTestClusterUnavailable("\(script.path) \(arguments.joined(separator: " ")) did not finish within two minutes")
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw PostgresTestClusterUnavailable(
                "\(script.path) \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus)): \(complaint)"
                    + "Run Scripts/setup to install PostgreSQL 15, or set \(variable) to a database the tests may use"
            )
        }
        return printed
    }
}

/// No PostgreSQL for the tests, and what to do about it.
public struct PostgresTestClusterUnavailable: Error, CustomStringConvertible {
    /// What went wrong and what to run.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
