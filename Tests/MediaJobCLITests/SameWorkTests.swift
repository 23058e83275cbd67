import EngineTestKit
import Foundation
import Glibc
import Testing

/// A job is the same wherever and however it is submitted: nothing about the machine goes into
/// its spec, its plan or its work key.
@Suite struct SameWorkTests {
    @Test func anExportSubmittedOnOneCoreAndThenOnBothIsOneJobThatAnyProcessFinishesTheSame() throws {
        let fixture = CLIFixture()
        let project = try MiniProject.make(in: fixture.folder)
        let output = fixture.folder.path("mini.zip")
        let first = try fixture.start("export", [project, "--output", output, "--json"], launcher: ["/usr/bin/taskset", "-c", "0"])
        let progress = try #require(first.waitForEvent { $0[string: "event"] == "progress" }, "the export made progress")
        first.send(SIGINT)
        let paused = first.finish()
        #expect(paused.status == 75, "\(paused.stderr)")
        let id = try #require(progress[string: "job_id"])
        #expect(try StoredJob(fixture, id: id).journalHas("chunks_at_once", "1"), "one core: one chunk at a time")

        let again = try fixture.run("export", [project, "--output", output, "--json"])
        #expect(again.status == 69, "\(again.stderr)")
        #expect(again.stderr.contains("the same work is already job \(id.prefix(8))"), "\(again.stderr)")
        #expect(again.events.last?[string: "job_id"] == id)
        #expect(try fixture.run("jobs", ["--json"]).stdout.components(separatedBy: "\"job_id\"").count == 2, "one job only")

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == (try MiniProject.referenceArchive()))
    }
}
