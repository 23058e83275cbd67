import Foundation
import Testing

/// EIO and ENOSPC from write, fsync, rename and the checkpoint, injected into the real process
/// through `MEDIAJOB_FAULT` at unit 2 of a six-unit self-test (run one unit at a time).
@Suite struct IOErrorTests {
    /// The fault, the failure category the job must end with, and words its message must hold.
    /// Unit 2's file is the sixth `fsync`: each unit syncs its file, then its folder, and the first
    /// checkpoint also the workspace's parent.
    static let faults: [(fault: String, category: String, words: String)] = [
        ("commit.write:3:EIO", "io", "write failed"),
        ("commit.write:3:ENOSPC", "no_space", "no space left"),
        ("fsync:6:EIO", "io", "fsync failed"),
        ("fsync:6:ENOSPC", "no_space", "no space left"),
        ("rename:3:EIO", "io", "rename failed"),
        ("rename:3:ENOSPC", "no_space", "no space left"),
        ("checkpoint:3:EIO", "io", "checkpoint failed"),
    ]

    @Test(arguments: faults)
    func aFailedWriteFsyncOrRenameNeverCountsTheChunkAndResumeRedoesItFromItsSource(
        fault: String, category: String, words: String
    ) throws {
        let fixture = CLIFixture()
        let failed = try fixture.run("selftest", fixture.selftest(units: 6, unitMilliseconds: 1),
                                     environment: ["MEDIAJOB_FAULT": fault])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(words), "\(failed.stderr)")
        #expect(failed.stderr.contains("Resume with: mediajob resume"))
        let id = try #require(failed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        let status = try fixture.status(id)
        #expect(status[string: "state"] == "failed")
        #expect(status[string: "failure"] == category)
        #expect(try job.doneChunks == [0, 1], "unit 2 is not recorded done")
        #expect(try job.uncommittedFiles.isEmpty, "the data whose write, fsync or rename failed is thrown away")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")))

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let result = try fixture.result()
        #expect(result.committed == Array(0..<6))
        #expect(result.executions["2"] == 2, "unit 2 was redone from its source, not retried on the same data")
        #expect(try job.checkpointedChunks.sorted() == Array(0..<6))
    }
}
