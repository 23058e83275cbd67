import EngineTestKit
import MediaTestKit
import Foundation
import Testing

/// Quiet by default (issue 14): data on standard output, words for people on standard error, in
/// every mode; where pictures render is said only when asked.
@Suite struct WordsAndDataTests {
    @Test func withoutJSONStandardOutputStaysEmptyAndNothingSaysWhereRenderingHappens() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("compress", [photo, "--output", fixture.folder.path("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("Starting job"))
        #expect(result.stderr.contains("Done: "))
        #expect(!result.stderr.contains("Rendering on"), "\(result.stderr)")
    }

    @Test func withJSONStandardOutputHoldsOnlyJSONLinesAndVerboseSaysWhereRenderingHappens() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("compress", [photo, "--output", fixture.folder.path("out"), "--json", "--verbose"],
                                     environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { #expect(CLIProcess.object(line) != nil, "not a JSON object: \(line)") }
        #expect(result.events.last?[string: "event"] == "completed")
        #expect(result.stderr.contains("Rendering on the CPU"), "\(result.stderr)")
    }

    @Test func jobManagementWordsGoToStandardError() throws {
        let fixture = CLIFixture()
        let empty = try fixture.run("jobs")
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr.contains("No jobs yet"))
        let failed = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1) + ["--fail-at", "2"])
        let id = try #require(failed.events.first?[string: "job_id"])
        let discard = try fixture.run("discard", [id])
        #expect(discard.status == 0)
        #expect(discard.stdout.isEmpty)
        #expect(discard.stderr.contains("Discarded job"))
    }
}
