import Dispatch
import Foundation
import JobEngine
import JobStoreConformance
import PostgresJobStore
import Synchronization
import Testing

/// A store outlives a restart of its server: the call that finds the connection lost waits for
/// the server with backoff, reconnects, and completes.
struct ServerRestartTests {
    @Test func aCallMadeWhileTheServerIsDownCompletesOnceItIsBack() throws {
        let printed = try Self.cluster(["start", "--owner-pid", String(getpid())])
        let values = Dictionary(uniqueKeysWithValues: printed.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        let url = try #require(values["MEDIAJOB_TEST_POSTGRES_URL"]), folder = try #require(values["MEDIAJOB_TEST_POSTGRES_DIR"])
        defer { _ = try? Self.cluster(["stop", folder]) }

        let store = try PostgresJobStore(url)
        let job = try store.insert(try makeJob(), chunks: makeChunks(2))
        _ = try Self.cluster(["server-stop", folder])

        let read = Mutex<Result<JobRecord?, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            read.withLock { $0 = Result { try store.job(job.id) } }
            done.signal()
        }
        // The call is under way while the server is down (starting it takes far longer than a try).
        _ = try Self.cluster(["server-start", folder])
        #expect(done.wait(timeout: .now() + 60) == .success, "the call returned within 60 s of the server's restart")
        let record = try #require(try read.withLock { $0 }?.get())
        #expect(record.id == job.id)
        #expect(try store.chunks(of: job.id).count == 2)
    }

    /// Runs Scripts/postgres-test-cluster with `arguments` and returns what it printed.
    private static func cluster(_ arguments: [String]) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/postgres-test-cluster")
        let process = Process()
        process.executableURL = script
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ClusterScriptFailed(arguments: arguments, status: process.terminationStatus)
        }
        return printed
    }
}

private struct ClusterScriptFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    var description: String { "Scripts/postgres-test-cluster \(arguments.joined(separator: " ")) exited \(status)" }
}
