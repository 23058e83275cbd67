import Foundation
import Testing

/// SIGKILL at each durable step (through `MEDIAJOB_FAULT`, which makes the real process kill
/// itself right after the step), then `resume`. Judged by what the store and the files say.
@Suite struct CrashPointTests {
    /// A fault point and the pass of it that kills, for a self-test of six units run one at a time:
    /// unit 2's write, fsync (each unit syncs its file, then its folder; the first checkpoint
    /// also syncs the workspace's parent), rename and checkpoint, then finalisation before and
    /// after the result is published.
    static let selfTestPoints: [(point: String, hit: Int)] = [
        ("commit.write", 3), ("fsync", 6), ("rename", 3), ("checkpoint", 3), ("finalize", 1), ("publish", 1),
    ]

    /// Fault points for an export run with several chunks at once: inside the chunk phase, in a
    /// checkpoint, and in finalisation before and after the package is published.
    static let exportPoints: [(point: String, hit: Int)] = [
        ("commit.write", 2), ("checkpoint", 2), ("finalize", 1), ("publish", 1),
    ]

    @Test(arguments: selfTestPoints)
    func aSelfTestKilledAtADurableStepResumesWithEveryUnitCommittedOnce(point: String, hit: Int) throws {
        let fixture = CLIFixture()
        let units = 6
        let killed = try fixture.run("selftest", fixture.selftest(units: units, unitMilliseconds: 1),
                                     environment: ["MEDIAJOB_FAULT": "\(point):\(hit)"])
        let id = try #require(killed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        #expect(try fixture.status(id)[string: "state"] == "interrupted", "the process died at \(point)")
        #expect(try job.store.integrityCheck() == ["ok"])
        let inFinalisation = point == "finalize" || point == "publish"
        #expect(try job.doneChunks == (inFinalisation ? Array(0..<units) : [0, 1]), "unit 2 counts only once checkpointed")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("result.json")) == (point == "publish"))

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try fixture.status(id)[string: "state"] == "completed")
        #expect(try job.checkpointedChunks.sorted() == Array(0..<units), "every chunk checkpointed exactly once")
        let result = try fixture.result()
        #expect(result.committed == Array(0..<units))
        #expect(result.executions.values.reduce(0, +) == units + (inFinalisation ? 0 : 1), "only the unit in flight ran again")
        if point == "publish" {
            #expect(try job.journalHas("published", "already"), "the published result was recognised, not replaced")
        }
        #expect(try job.store.integrityCheck() == ["ok"])
    }

    @Test func aSelfTestWhoseUnitsShareChunksKilledAtACheckpointRunsOnlyThatChunksUnitsAgain() throws {
        let fixture = CLIFixture()
        // Units of 10 and 20 ms in chunks of at least 60 ms: units 0-3, 4-7, then the last two.
        let killed = try fixture.run("selftest", fixture.selftest(units: 10, unitMilliseconds: 10) + ["--chunk-ms", "60"],
                                     environment: ["MEDIAJOB_FAULT": "checkpoint:2"])
        let id = try #require(killed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        #expect(try fixture.status(id)[string: "state"] == "interrupted", "the process died in the second checkpoint")
        #expect(try job.store.chunks(of: job.id).map(\.plan.key) == ["units-0000000-0000003.txt", "units-0000004-0000007.txt",
                                                               "units-0000008-0000009.txt"])
        #expect(try job.doneChunks == [0], "the second chunk counts only once checkpointed")

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try job.checkpointedChunks.sorted() == [0, 1, 2], "every chunk checkpointed exactly once")
        let result = try fixture.result()
        #expect(result.committed == Array(0..<10))
        let twice = Set(4...7)
        #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<10).map { (String($0), twice.contains($0) ? 2 : 1) }),
                "only the units of the chunk in flight ran again")
    }

    @Test(arguments: exportPoints)
    func anExportKilledAtADurableStepResumesToTheSameBytes(point: String, hit: Int) throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let output = fixture.folder.path("mini.zip")
        let killed = try fixture.run("export", [try MiniProject.make(in: fixture.folder), "--output", output, "--json"],
                                     environment: ["MEDIAJOB_FAULT": "\(point):\(hit)"])
        let id = try #require(killed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        let status = try fixture.status(id)
        #expect(status[string: "state"] == "interrupted", "the process died at \(point)")
        #expect(try job.store.integrityCheck() == ["ok"])
        #expect(FileManager.default.fileExists(atPath: output) == (point == "publish"), "nothing partial is published")
        let total = try #require(status[number: "units_total"].map(Int.init))

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try job.checkpointedChunks.sorted() == Array(0..<total), "no chunk lost or checkpointed twice")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == expected, "byte-identical to an uninterrupted export")
        #expect(try job.store.integrityCheck() == ["ok"])
    }
}
