import Foundation
import Glibc
import Testing

/// Two processes cancelling, discarding or resuming one job at the same moment: whichever order
/// the kernel picks, the job runs in one process at most and the other command says why.
@Suite struct ConcurrentStopTests {
    /// A self-test of `units` paused after its first progress, and its identity.
    private func pausedJob(_ fixture: CLIFixture, units: Int) throws -> String {
        let job = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 20))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        job.send(SIGINT)
        #expect(job.finish().status == 75)
        return try #require(first[string: "job_id"])
    }

    /// Starts `resume JOB` and, at once, `command JOB` from another process; returns both results.
    private func race(_ command: String, withResumeOf id: String, in fixture: CLIFixture) throws
        -> (resumed: CLIProcess.Result, other: CLIProcess.Result, state: String?) {
        let resume = try fixture.start("resume", [id])
        let other = try fixture.start(command, [id]).finish()
        let resumed = resume.finish()
        return (resumed, other, try fixture.status(id)[string: "state"])
    }

    @Test func twoCancelsOfOneRunningJobPauseItOnce() throws {
        let fixture = CLIFixture()
        let units = 40
        let job = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 30))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        let id = try #require(first[string: "job_id"])
        let cancels = [try fixture.start("cancel", [id]), try fixture.start("cancel", [id])].map { $0.finish() }
        #expect(job.finish().status == 75)
        #expect(cancels.contains { $0.status == 0 && $0.stderr.contains("is paused") })
        for cancel in cancels where cancel.status != 0 {
            #expect(cancel.status == 69)
            #expect(cancel.stderr.contains("is paused; only queued or running jobs can be cancelled"), "\(cancel.stderr)")
        }
        #expect(try fixture.status(id)[string: "state"] == "paused")
        #expect(try fixture.run("resume", [id]).status == 0)
        let result = try fixture.result()
        #expect(result.committed == Array(0..<units))
        #expect(result.executions.values.reduce(0, +) <= units + 1)
    }

    @Test func aCancelRacingAResumeEitherPausesTheResumedJobOrIsRefused() throws {
        let fixture = CLIFixture()
        let units = 30
        let id = try pausedJob(fixture, units: units)
        let (resumed, cancel, state) = try race("cancel", withResumeOf: id, in: fixture)
        if cancel.status == 0 {
            #expect(cancel.stderr.contains("Asked job \(id.prefix(8)) to stop"))
            #expect([0, 75].contains(resumed.status), "the resumed job stops at a boundary, or had already finished")
            #expect(state == (resumed.status == 0 ? "completed" : "paused"))
        } else {
            #expect(cancel.status == 69)
            #expect(cancel.stderr.contains("only queued or running jobs can be cancelled"), "\(cancel.stderr)")
            #expect(resumed.status == 0)
            #expect(state == "completed")
        }
        if state == "paused" { #expect(try fixture.run("resume", [id]).status == 0) }
        let result = try fixture.result()
        #expect(result.committed == Array(0..<units))
        #expect(result.executions.values.reduce(0, +) <= units + 2, "each stop redoes at most the unit in flight")
    }

    @Test func aDiscardRacingAResumeLetsExactlyOneOfThemHaveTheJob() throws {
        let fixture = CLIFixture()
        let units = 10
        let (resumed, discard, state) = try race("discard", withResumeOf: try pausedJob(fixture, units: units), in: fixture)
        #expect([resumed.status, discard.status].sorted() == [0, 69], "resume: \(resumed.stderr) discard: \(discard.stderr)")
        if discard.status == 0 {
            #expect(state == "discarded")
            #expect(resumed.stderr.contains("is discarded") || resumed.stderr.contains("another process"), "\(resumed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")))
        } else {
            #expect(state == "completed")
            #expect(discard.stderr.contains("is completed") || discard.stderr.contains("another process"), "\(discard.stderr)")
            #expect(try fixture.result().committed == Array(0..<units))
        }
    }

    @Test func twoDiscardsOfOneJobDiscardItOnce() throws {
        let fixture = CLIFixture()
        let id = try pausedJob(fixture, units: 10)
        let results = [try fixture.start("discard", [id]), try fixture.start("discard", [id])].map { $0.finish() }
        #expect(results.map(\.status).sorted() == [0, 69])
        let refused = try #require(results.first { $0.status == 69 })
        #expect(refused.stderr.contains("is discarded") || refused.stderr.contains("another process"), "\(refused.stderr)")
        #expect(try fixture.status(id)[string: "state"] == "discarded")
    }
}
