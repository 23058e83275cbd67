import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

/// Copies one file; the same work is the same file as it is now (path and size).
private struct CopyJob: JobKind {
    struct Spec: Codable, Sendable {
        var source: String
        var destination: String
    }

    struct Identity: Encodable {
        var source: String
        var size: Int
    }

    var name: String { "copy" }

    func workIdentity(of spec: Spec) throws -> any Encodable {
        Identity(source: spec.source, size: (try? Data(contentsOf: URL(fileURLWithPath: spec.source)).count) ?? -1)
    }

    func plan(_ spec: Spec) throws -> JobPlan {
        guard FileManager.default.fileExists(atPath: spec.source) else { throw ItemFailure(item: spec.source, reason: "no such file") }
        return JobPlan(destination: URL(fileURLWithPath: spec.destination), chunks: [PlannedChunk(key: "copy", stage: .render)])
    }

    func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try context.workspace.commit(chunk.key, data: try Data(contentsOf: URL(fileURLWithPath: spec.source)))
        return nil
    }

    func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        context.workspace.url(for: "copy")
    }
}

@Suite struct ExistingJobTests {
    @Test func aResubmissionAfterItsInputMovedFindsTheUnfinishedJobInsteadOfRecordingARejection() async throws {
        let folder = TemporaryDirectory()
        let scheduler = try JobScheduler(store: InMemoryJobStore(), lockDirectory: folder.url.appendingPathComponent("locks"),
                                         maxConcurrentJobs: 1)
        let pattern = try TaskIdentifier("com.example.copier.copy.*")
        try scheduler.register(CopyJob(), permitted: pattern)
        try Data("bytes".utf8).write(to: folder.url.appendingPathComponent("in.txt"))
        let spec = CopyJob.Spec(source: folder.path("in.txt"), destination: folder.path("out.txt"))
        guard case .created(let handle) = try scheduler.submit(try TaskRequest(identifier: pattern.unique(), title: "Copying",
                                                                                subtitle: "starting"), spec: spec) else {
            Issue.record("expected a new job")
            return
        }
        handle.task.expire()
        #expect(await scheduler.run(handle) == .paused)

        try FileManager.default.moveItem(atPath: folder.path("in.txt"), toPath: folder.path("moved.txt"))
        let again = try scheduler.submit(try TaskRequest(identifier: pattern.unique(), title: "Copying", subtitle: "starting"),
                                         spec: spec)
        guard case .existing(let job) = again else {
            Issue.record("expected the paused job, got \(again)")
            return
        }
        #expect(job.id == handle.id && job.state == .paused)
        #expect(try scheduler.jobs().map(\.id) == [handle.id], "no rejected job was recorded")
    }
}
