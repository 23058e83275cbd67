import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Keeping the state folder readable (issue 14): `jobs` shows where each job's result goes and
/// lists discarded jobs and refused submissions only when asked.
@Suite struct HousekeepingTests {
    @Test func jobsShowsDestinationsAndHidesDiscardedAndRefusedUnlessAll() throws {
        let fixture = CLIFixture()
        let done = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1, output: "done.json"))
        #expect(done.status == 0, "\(done.stderr)")
        let doneID = try #require(done.events.first?[string: "job_id"])
        let refused = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1, output: "done.json"))
        #expect(refused.status == 65, "the output exists: \(refused.stderr)")
        let refusedID = try #require(refused.events.last?[string: "job_id"])
        let failed = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1, output: "gone.json") + ["--fail-at", "2"])
        let failedID = try #require(failed.events.first?[string: "job_id"])
        #expect(try fixture.run("discard", [failedID]).status == 0)

        let listed = try fixture.run("jobs")
        #expect(listed.status == 0)
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("JOB ") == true && lines.first?.contains("DESTINATION") == true, "\(listed.stdout)")
        #expect(lines.count == 2, "the header and the completed job only: \(listed.stdout)")
        #expect(lines.last?.hasPrefix(String(doneID.prefix(8))) == true)
        #expect(lines.last?.contains("done.json") == true, "its destination: \(listed.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.run("jobs", ["--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(json?.compactMap { $0[string: "job_id"] } == [doneID])

        let all = try fixture.run("jobs", ["--all"]).stdout
        for id in [doneID, refusedID, failedID] { #expect(all.contains(id.prefix(8)), "--all lists \(id)") }
        // The refused submission is still in the journal.
        let journal = try fixture.run("status", [refusedID, "--journal"])
        let ended = journal.events.first { $0[string: "event"] == "ended" }
        #expect((ended?["detail"] as? [String: Any])?[string: "outcome"] == "rejected", "\(journal.stdout)")
    }

    @Test func thumbnailsOfFilesSharingANameShowTheirSourceAndTheIndexMapsEach() throws {
        let fixture = CLIFixture()
        let shots = fixture.folder.url.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg")
        try FileManager.default.copyItem(at: photo, to: shots.appendingPathComponent("p3.jpg"))
        try FileManager.default.copyItem(at: photo, to: shots.appendingPathComponent("q.jpg"))
        try MediaFixtures.tool("/usr/bin/vips", ["copy", photo.path, shots.appendingPathComponent("p3.png").path])
        try MediaFixtures.tool("/usr/bin/vips", ["copy", photo.path, shots.appendingPathComponent("p3.webp").path])
        let output = fixture.folder.path("thumbs")
        let result = try fixture.run("thumbnail", [shots.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(made == ["contact-sheet.jpg", "index.json", "p3-jpg.jpg", "p3-png.jpg", "p3-webp.jpg", "q.jpg"], "\(made)")
        struct Index: Decodable { struct Entry: Decodable { var source: String, output: String }; var thumbnails: [Entry] }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: output + "/index.json")))
        let mapping = Dictionary(uniqueKeysWithValues: index.thumbnails.map { (URL(fileURLWithPath: $0.source).lastPathComponent, $0.output) })
        #expect(mapping == ["p3.jpg": "p3-jpg.jpg", "p3.png": "p3-png.jpg", "p3.webp": "p3-webp.jpg", "q.jpg": "q.jpg"])
    }

    @Test func pruneForgetsFinishedJobsOnlyAndSaysHowMany() throws {
        let fixture = CLIFixture()
        let done = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1, output: "done.json"))
        let doneID = try #require(done.events.first?[string: "job_id"])
        let refused = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1, output: "done.json"))
        #expect(refused.status == 65)
        let discarded = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1, output: "a.json") + ["--fail-at", "1"])
        #expect(try fixture.run("discard", [try #require(discarded.events.first?[string: "job_id"])]).status == 0)
        let failed = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1, output: "b.json") + ["--fail-at", "1"])
        let failedID = try #require(failed.events.first?[string: "job_id"])

        let young = try fixture.run("prune", ["--older-than", "1d"])
        #expect(young.status == 0)
        #expect(young.stderr == "Nothing to prune: no completed, discarded or refused job last changed more than 1d ago.\n")
        let ids = { try fixture.run("jobs", ["--all", "--json"]).stdout.components(separatedBy: "\"job_id\"").count - 1 }
        #expect(try ids() == 4)

        let pruned = try fixture.run("prune")
        #expect(pruned.status == 0)
        #expect(pruned.stderr == "Removed the records of 3 jobs (1 completed, 1 discarded, 1 refused).\n", "\(pruned.stderr)")
        let left = try JSONSerialization.jsonObject(with: Data(try fixture.run("jobs", ["--all", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(left?.compactMap { $0[string: "job_id"] } == [failedID], "the failed job can still resume")
        #expect(try fixture.run("status", [doneID]).status == 64)
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("done.json")), "what a job published stays")
        #expect(try fixture.run("resume", [failedID]).status == 1, "the kept job still resumes (and fails at its unit again)")

        let wrong = try fixture.run("prune", ["--older-than", "3x"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("Error: --older-than expects a number and a unit"))
    }
}
