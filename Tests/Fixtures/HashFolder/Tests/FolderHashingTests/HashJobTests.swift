import EngineTestKit
import FolderHashing
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

/// The hash kind, tested as an embedder would: through a scheduler over EngineTestKit's
/// in-memory store, with no database and no files but the folder, the workspace and the report.
@Suite struct HashJobTests {
    let folder = TemporaryDirectory()

    func scheduler() throws -> (JobScheduler, TaskIdentifier) {
        let scheduler = try JobScheduler(store: InMemoryJobStore(), lockDirectory: folder.url.appendingPathComponent("locks"),
                                         maxConcurrentJobs: 1, workspacePrefix: "hashfolder")
        let permitted = try TaskIdentifier(HashJob.permitted)
        try scheduler.register(HashJob(), permitted: permitted)
        return (scheduler, permitted)
    }

    func files(_ contents: [String: String]) throws -> String {
        let input = folder.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for (name, text) in contents { try Data(text.utf8).write(to: input.appendingPathComponent(name)) }
        return input.path
    }

    @Test func theReportListsEachFilesSHA256AsSha256sumDoes() async throws {
        let (scheduler, permitted) = try scheduler()
        let input = try files(["a.txt": "abc", "empty": ""])
        let spec = HashJob.Spec(folder: input, report: folder.path("report.txt"))
        guard case .created(let handle) = try scheduler.submit(
            try TaskRequest(identifier: permitted.unique(), title: "Hashing", subtitle: "hashing"), spec: spec) else {
            Issue.record("expected a new job")
            return
        }
        #expect(await scheduler.run(handle) == .completed)
        // FIPS 180-2's "abc" example and the digest of no bytes.
        #expect(try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8) == """
            ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.txt
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty

            """)
        #expect(handle.task.subtitle == "hashing", "the engine leaves the kind's subtitle alone")
    }

    @Test func aPausedJobResumesWithTheFilesNotYetHashed() async throws {
        let (scheduler, permitted) = try scheduler()
        let input = try files(["1": "one", "2": "two", "3": "three"])
        let spec = HashJob.Spec(folder: input, report: folder.path("report.txt"))
        guard case .created(let handle) = try scheduler.submit(
            try TaskRequest(identifier: permitted.unique(), title: "Hashing", subtitle: "hashing"), spec: spec) else {
            Issue.record("expected a new job")
            return
        }
        handle.task.observe { event in
            if case .progress(let snapshot) = event, snapshot.unitsDone == 1 { handle.task.expire() }
        }
        #expect(await scheduler.run(handle) == .paused)
        #expect(!FileManager.default.fileExists(atPath: folder.path("report.txt")))

        let again = try scheduler.submit(try TaskRequest(identifier: permitted.unique(), title: "Hashing", subtitle: "hashing"),
                                         spec: spec)
        guard case .existing(let job) = again else {
            Issue.record("expected the paused job")
            return
        }
        let resumed = try scheduler.resume(job.id)
        let counts = Counts()
        resumed.task.observe { event in
            if case .progress(let snapshot) = event { counts.append(snapshot.unitsDone) }
        }
        #expect(await scheduler.run(resumed) == .completed)
        #expect(counts.values.min() == 2, "the file hashed before the pause was not hashed again: \(counts.values)")
        #expect(try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8).split(separator: "\n").count == 3)
    }
}

/// Units done, as progress reported them.
final class Counts: Sendable {
    private let list = Mutex<[Int]>([])

    func append(_ value: Int) { list.withLock { $0.append(value) } }
    var values: [Int] { list.withLock { $0 } }
}
