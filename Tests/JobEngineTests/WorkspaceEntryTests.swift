import EngineTestKit
import Foundation
import Glibc
@testable import JobEngine
import Testing

/// The workspace's own entry in its parent folder is made durable before anything counts on the
/// outputs in it, once a job: each case fails one `fsync` (in a child process of its own: arming a
/// fault point is process-wide) and looks at which folder it was.
@Suite struct WorkspaceEntryTests {
    /// In a child process: runs a scripted job of `units` chunks, one at a time, with sync number
    /// `failingSync` failing; 0 when the job failed naming `expected` (`"parent"` or `"workspace"`)
    /// as the folder whose sync failed and no chunk was recorded done after it, else 1.
    private static func exitCodeOfRunning(units: Int, failingSync: Int, expected: String, doneBefore: [Int]) async -> Int32 {
        alarm(120) // the deadline: a job that never ends ends the child by SIGALRM, failing the test
        FaultPoints.arm("fsync:\(failingSync):EIO")
        do {
            let fixture = try EngineFixture()
            let handle = try fixture.submit(fixture.spec(units: units))
            guard await fixture.scheduler.run(handle) == .failed(.io), let job = try fixture.store.job(handle.id) else { return 1 }
            let folder = expected == "parent" ? fixture.folder.url.path : job.workspace
            let done = try fixture.store.chunks(of: handle.id).filter(\.isDone).map(\.index)
            return job.message?.contains("fsync failed for \(folder):") == true && done == doneBefore ? 0 : 1
        } catch {
            return 1
        }
    }

    @Test func theWorkspacesParentIsSyncedBeforeTheFirstCheckpointAndNotAgain() async {
        // Chunk 0 syncs its output (sync 1); its checkpoint then syncs the workspace's parent
        // (sync 2), then the workspace (3), before the store records it done.
        await #expect(processExitsWith: .success) {
            exit(await Self.exitCodeOfRunning(units: 3, failingSync: 2, expected: "parent", doneBefore: []))
        }
        // Chunk 1 syncs its output (sync 4); its checkpoint syncs only the workspace (5): the
        // parent once a job, not once a chunk.
        await #expect(processExitsWith: .success) {
            exit(await Self.exitCodeOfRunning(units: 3, failingSync: 5, expected: "workspace", doneBefore: [0]))
        }
    }

    @Test func aLeasesFolderMadeWithTheWorkspaceSyncsTheWorkspacesParentOnce() async {
        // The first lease's folder is made with the workspace: `leases` is synced (sync 1), then
        // the workspace (2), then the workspace's parent (3).
        await #expect(processExitsWith: .success) {
            FaultPoints.arm("fsync:3:EIO")
            let folder = TemporaryDirectory()
            do {
                try Workspace(directory: folder.url.appendingPathComponent("work")).leased(output: "chunk-0.1").prepare()
            } catch let error as FileSystemError where error.path == folder.url.path {
                exit(0)
            } catch {}
            exit(1)
        }
        // A second lease's folder in the same workspace syncs `leases` (4) and the workspace (5),
        // not the parent again (6).
        await #expect(processExitsWith: .success) {
            FaultPoints.arm("fsync:6:EIO")
            let folder = TemporaryDirectory()
            let workspace = Workspace(directory: folder.url.appendingPathComponent("work"))
            do {
                try workspace.leased(output: "chunk-0.1").prepare()
                try workspace.leased(output: "chunk-1.1").prepare()
                try workspace.leased(output: "chunk-1.1").commit("one", data: Data("1".utf8)) // its file's sync: 6
            } catch let error as FileSystemError where error.path.hasPrefix(workspace.directory.path + "/leases/chunk-1.1/") {
                exit(0)
            } catch {}
            exit(1)
        }
    }
}
