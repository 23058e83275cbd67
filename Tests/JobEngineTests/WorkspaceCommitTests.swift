import EngineTestKit
import Foundation
import Glibc
@testable import JobEngine
import Testing

@Suite struct WorkspaceCommitTests {
    /// Commits `a`, `b` and `c` (each written, then synced) into a workspace in `folder`, together
    /// or one by one.
    private static func commitThree(in folder: TemporaryDirectory, together: Bool) throws -> Workspace {
        let workspace = Workspace(directory: folder.url.appendingPathComponent("work"))
        let commit = { (workspace: Workspace) in
            for name in ["a", "b", "c"] {
                try workspace.commit(name) { try Data(name.utf8).write(to: $0) }
            }
        }
        if together { try workspace.committingTogether(commit) } else { try commit(workspace) }
        return workspace
    }

    /// In a child process: 3 when committing three files fails at sync number `failingSync`, else 0.
    private static func exitCodeOfCommittingThree(together: Bool, failingSync: Int) -> Int32 {
        FaultPoints.arm("fsync:\(failingSync):EIO")
        let folder = TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        return (try? commitThree(in: folder, together: together)) == nil ? 3 : 0
    }

    @Test func outputsCommittedTogetherAreThereWithTheirBytes() throws {
        let folder = TemporaryDirectory()
        let workspace = try Self.commitThree(in: folder, together: true)
        for name in ["a", "b", "c"] {
            #expect(try String(contentsOf: workspace.url(for: name), encoding: .utf8) == name)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path)
        #expect(left.sorted() == ["a", "b", "c"], "no temporary file is left")
    }

    @Test func threeOutputsCommittedTogetherSyncTheFolderOnceNotThreeTimes() async {
        // Three files one by one: a sync of each file and of the folder after each rename, six in
        // all. Together: the three files and the folder once, four. The fifth sync fails only in
        // the first case. In child processes: arming a fault point is process-wide.
        await #expect(processExitsWith: .exitCode(3)) {
            exit(Self.exitCodeOfCommittingThree(together: false, failingSync: 5))
        }
        await #expect(processExitsWith: .success) {
            exit(Self.exitCodeOfCommittingThree(together: true, failingSync: 5))
        }
    }

    @Test func whatWasCommittedBeforeAnErrorStays() throws {
        struct Refused: Error {}
        let folder = TemporaryDirectory()
        let workspace = Workspace(directory: folder.url.appendingPathComponent("work"))
        #expect(throws: Refused.self) {
            try workspace.committingTogether { together in
                try together.commit("kept") { try Data("kept".utf8).write(to: $0) }
                throw Refused()
            }
        }
        #expect(workspace.contains("kept"))
    }
}
