import Foundation
import Glibc
import Testing

@Suite struct CapacityTests {
    @Test func failStrategyIsRejectedWith69AndQueueStrategyWaitsThenRuns() throws {
        let fixture = CLIFixture()
        // Long enough to be running still when the cancel comes on a loaded machine (40 units of
        // 50 ms once ended first); the cancel stops it at the next unit.
        let running = try fixture.start("selftest", fixture.selftest(units: 2_000, unitMilliseconds: 50, output: "a.json") + ["--max-jobs", "1"])
        let first = try #require(running.waitForEvent { $0[string: "event"] == "progress" })
        let runningID = try #require(first[string: "job_id"])

        let rejected = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1, output: "b.json")
                                       + ["--max-jobs", "1", "--strategy", "fail"])
        #expect(rejected.status == 69)
        #expect(rejected.stderr.contains("busy"))
        #expect(rejected.events.last?[string: "outcome"] == "rejected")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("b.json")))

        let queued = try fixture.start("selftest", fixture.selftest(units: 2, unitMilliseconds: 1, output: "c.json") + ["--max-jobs", "1"])
        let submitted = try #require(queued.waitForEvent { $0[string: "event"] == "submitted" })
        let queuedID = try #require(submitted[string: "job_id"])
        #expect(try fixture.status(queuedID)[string: "state"] == "queued")

        #expect(try fixture.run("cancel", [runningID]).status == 0)
        #expect(running.finish().status == 75)
        #expect(queued.finish().status == 0)
        #expect(try fixture.result("c.json").committed == [0, 1])
    }

    @Test func submittingTheSameWorkAgainNamesTheExistingJob() throws {
        let fixture = CLIFixture()
        let arguments = fixture.selftest(units: 6, unitMilliseconds: 1) + ["--fail-at", "3"]
        let failed = try fixture.run("selftest", arguments)
        #expect(failed.status == 1)
        let id = try #require(failed.events.first?[string: "job_id"])
        let again = try fixture.run("selftest", arguments)
        #expect(again.status == 69)
        #expect(again.stderr.contains("already job \(id.prefix(8))"))
        #expect(again.events.last?[string: "job_id"] == id)
    }
}
