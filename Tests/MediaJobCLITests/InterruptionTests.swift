import EngineTestKit
import Foundation
import Glibc
import Testing

@Suite struct InterruptionTests {
    @Test func sigintPausesWithExit75AndResumeCompletes() throws {
        let fixture = CLIFixture()
        let job = try fixture.start("selftest", fixture.selftest(units: 20, unitMilliseconds: 40))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        job.send(SIGINT)
        let stopped = job.finish()
        #expect(stopped.status == 75)
        #expect(stopped.stderr.contains("Resume with: mediajob resume"))
        #expect(stopped.events.last?[string: "outcome"] == "paused")
        let id = try #require(first[string: "job_id"])
        #expect(try fixture.status(id)[string: "state"] == "paused")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")))

        let resumed = try fixture.run("resume", [id, "--json"])
        #expect(resumed.status == 0)
        let fractions = resumed.events.compactMap { $0[string: "event"] == "progress" ? $0[number: "fraction"] : nil }
        #expect((fractions.first ?? 0) >= (first[number: "fraction"] ?? 1), "a resumed job starts where it stopped")
        let result = try fixture.result()
        #expect(result.committed == Array(0..<20))
        #expect(result.executions.values.reduce(0, +) <= 21, "at most the unit in flight ran twice")
    }

    @Test func sigkillAtRandomMomentsThenResumeCommitsEveryUnitExactlyOnce() throws {
        var random = SplitMix64(seed: 20261129)
        let trials = 20, units = 12
        var interrupted = 0
        for trial in 0..<trials {
            let fixture = CLIFixture()
            let job = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 15))
            // A random moment inside the run: once a random number of units has landed, part way
            // into the next unit (each takes 15 ms).
            let landed = Int.random(in: 0..<units, using: &random)
            let seen = try #require(job.waitForEvent("\(landed) units landed") {
                landed == 0 ? $0[string: "event"] == "submitted" : $0[number: "units_done"] == Double(landed)
            })
            let id = try #require(seen[string: "job_id"])
            usleep(UInt32.random(in: 0...15_000, using: &random)) // picks the moment; whether it interrupted is counted below
            job.send(SIGKILL)
            _ = job.finish()
            // The kill may land after the job completed, while the process was exiting.
            if try fixture.status(id)[string: "state"] != "completed" {
                interrupted += 1
                #expect(try fixture.status(id)[string: "state"] == "interrupted", "trial \(trial): a killed job shows as interrupted")
                #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")), "trial \(trial)")
                #expect(try fixture.run("resume", [id]).status == 0, "trial \(trial)")
            }
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units), "trial \(trial)")
            #expect(result.executions.values.reduce(0, +) <= units + 1, "trial \(trial): at most one unit redone")
            #expect(try fixture.store().integrityCheck() == ["ok"])
        }
        #expect(interrupted >= trials * 3 / 4, "only \(interrupted) of \(trials) kills landed before the job completed")
    }

    @Test func aProgressEventIsNeverAheadOfTheStore() throws {
        let fixture = CLIFixture()
        let job = try fixture.start("selftest", fixture.selftest(units: 30, unitMilliseconds: 20))
        let third = try #require(job.waitForEvent { $0[string: "event"] == "progress" && $0[number: "units_done"] == 3 })
        job.send(SIGSTOP)
        let id = try #require(third[string: "job_id"])
        let store = try fixture.store()
        let stored = try #require(try store.jobs().first { $0.id.rawValue == id })
        #expect(stored.progress.unitsDone >= 3)
        #expect(stored.progress.fraction >= (third[number: "fraction"] ?? 2) - 0.00005, "events round to 4 places")
        #expect(try store.chunks(of: stored.id).filter(\.isDone).count >= 3)
        job.send(SIGKILL)
        _ = job.finish()
        #expect(try fixture.run("resume", [id]).status == 0)
    }

    @Test func statusWatchFollowsARunningJobAndExitsWithItsOutcome() throws {
        let fixture = CLIFixture()
        let job = try fixture.start("selftest", fixture.selftest(units: 40, unitMilliseconds: 30))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        let watch = try fixture.run("status", [try #require(first[string: "job_id"]), "--watch", "--json"])
        #expect(watch.status == 0)
        #expect(watch.events.last?[string: "state"] == "completed")
        #expect(watch.events.contains { $0[string: "state"] == "running" })
        #expect(job.finish().status == 0)
    }

    @Test func cancelFromAnotherProcessPausesTheJob() throws {
        let fixture = CLIFixture()
        let job = try fixture.start("selftest", fixture.selftest(units: 60, unitMilliseconds: 40))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        let id = try #require(first[string: "job_id"])
        let cancel = try fixture.run("cancel", [String(id.prefix(8))])
        #expect(cancel.status == 0)
        #expect(cancel.stderr.contains("is paused"))
        #expect(job.finish().status == 75)
        #expect(try fixture.status(id)[string: "state"] == "paused")
    }
}

@Suite struct ConcurrentCommandTests {
    @Test func twoProcessesResumingOneJobAtOnceRunItOnceAndTheOtherIsToldWhy() throws {
        let fixture = CLIFixture()
        let job = try fixture.start("selftest", fixture.selftest(units: 30, unitMilliseconds: 20))
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        job.send(SIGINT)
        #expect(job.finish().status == 75)
        let id = try #require(first[string: "job_id"])
        let one = try fixture.start("resume", [id])
        let two = try fixture.start("resume", [id])
        let results = [one.finish(), two.finish()]
        #expect(results.map(\.status).sorted() == [0, 69])
        let refused = try #require(results.first { $0.status == 69 })
        #expect(refused.stderr.contains("another process") || refused.stderr.contains("is completed"))
        let result = try fixture.result()
        #expect(result.committed == Array(0..<30))
        #expect(result.executions.values.reduce(0, +) <= 31, "no unit ran in both processes")
    }
}
