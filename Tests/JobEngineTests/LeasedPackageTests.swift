import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

/// The package stage a worker runs under a lease (``JobScheduler/publishLeasedJob``): it lists
/// the bad items its worker read once when it claimed the stage, and reads none again.
struct LeasedPackageTests {
    @Test func aLeasedPackageListsTheSkippedItemsItsWorkerReadWithoutReadingThemAgain() async throws {
        let fixture = try EngineFixture()
        let job = try submitDetached(fixture, units: 2)
        let handed = [
            BadItem(item: "b.jpg", reason: "it cannot be read", outcome: .skipped, chunkIndex: 1),
            // Neither is a chunk's skipped item: a failed one ends the job before its package
            // stage runs, and the package stage's own are found again as it runs.
            BadItem(item: "c.jpg", reason: "it is truncated", outcome: .failed, chunkIndex: 0),
            BadItem(item: "d.jpg", reason: "it vanished", outcome: .skipped, chunkIndex: nil),
        ]

        _ = try await fixture.scheduler.publishLeasedJob(job, packageIndex: ChunkLease.packageIndex, output: "package.1-test",
                                                         badItems: handed, task: ContinuedTask(request: job.request, progress: job.progress))

        // The store holds no bad item: the listed one can only come from what the worker handed over.
        #expect(try fixture.store.badItems(of: job.id).isEmpty)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 2) + "skipped: b.jpg: it cannot be read\n")
    }

    @Test func aLeasedPackageWithoutBadItemsPublishesTheChunksAlone() async throws {
        let fixture = try EngineFixture()
        let job = try submitDetached(fixture, units: 3)

        _ = try await fixture.scheduler.publishLeasedJob(job, packageIndex: ChunkLease.packageIndex, output: "package.1-test",
                                                         badItems: [], task: ContinuedTask(request: job.request, progress: job.progress))

        #expect(fixture.result() == ScriptedJob.expectedResult(units: 3))
    }

    /// A job stored for workers (`--detach`) whose chunks' outputs lie in its workspace, as if they had run.
    private func submitDetached(_ fixture: EngineFixture, units: Int) throws -> JobRecord {
        guard case .created(let handle) = try fixture.scheduler.submit(try fixture.request(), spec: fixture.spec(units: units),
                                                                       detached: true) else {
            throw EngineFixture.FixtureError.notCreated
        }
        let workspace = Workspace(directory: URL(fileURLWithPath: handle.record.workspace))
        for index in 0..<units { try workspace.commit("chunk-\(index)", data: Data("\(index)\n".utf8)) }
        return handle.record
    }
}
