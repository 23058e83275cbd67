import Foundation
import Testing

@Suite struct SelfTestRunTests {
    @Test func aSelfTestCompletesAndEveryUnitIsCommittedOnce() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("selftest", fixture.selftest(units: 8, unitMilliseconds: 5))
        #expect(result.status == 0)
        let outcome = try fixture.result()
        #expect(outcome.committed == Array(0..<8))
        #expect(outcome.executions.values.allSatisfy { $0 == 1 })
        let jobs = try fixture.run("jobs", ["--json"])
        let list = try #require((try JSONSerialization.jsonObject(with: Data(jobs.stdout.utf8))) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?[string: "state"] == "completed")
        #expect(list.first?[number: "fraction"] == 1)
    }

    @Test func jsonEventsFollowTheContractAndTheBarIsMonotoneAndCapped() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("selftest", fixture.selftest(units: 10, unitMilliseconds: 5))
        let events = result.events
        #expect(events.first?[string: "event"] == "submitted")
        #expect(events.last?[string: "event"] == "completed")
        #expect(events.last?[string: "outcome"] == "completed")
        #expect(events.allSatisfy { $0[string: "event"] != nil && $0[string: "job_id"] != nil })
        let progress = events.filter { $0[string: "event"] == "progress" }
        let fractions = progress.compactMap { $0[number: "fraction"] }
        #expect(fractions.count == 11)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(fractions.dropLast().allSatisfy { $0 <= 0.97 })
        #expect(fractions.last == 1)
        for event in progress {
            for key in ["stage", "title", "subtitle"] { #expect(event[string: key] != nil, "progress has \(key)") }
            #expect(event.keys.contains("eta_s"))
            #expect((event[string: "subtitle"] ?? "").count <= 30)
        }
    }

    @Test func aFailingUnitFailsTheJobWithItsCategoryAndKeepsItResumable() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("selftest", fixture.selftest(units: 6, unitMilliseconds: 1) + ["--fail-at", "4"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unit 4 failed on purpose"))
        #expect(result.stderr.contains("Resume with: mediajob resume"))
        let id = try #require(result.events.first?[string: "job_id"])
        let status = try fixture.status(id)
        #expect(status[string: "state"] == "failed")
        #expect(status[string: "failure"] == "internal")
        #expect(status[number: "units_done"] == 4)

        #expect(try fixture.run("discard", [id]).status == 0)
        #expect(try fixture.status(id)[string: "state"] == "discarded")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")))
    }

    @Test func theJournalHasOneJSONLinePerLifecycleStep() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1))
        let id = try #require(result.events.first?[string: "job_id"])
        let journal = try fixture.run("status", [id, "--journal"])
        let steps = journal.stdout.split(separator: "\n").compactMap { CLIProcess.object($0)?[string: "event"] }
        #expect(steps == ["submitted", "started", "progress_first", "checkpoint", "checkpoint", "ended"])
    }
}
