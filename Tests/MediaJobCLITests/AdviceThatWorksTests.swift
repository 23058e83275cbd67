import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Advice that works (issue 14): after a failure, the commands the messages suggest do what they
/// say when followed as printed: `resume` after fixing the file, `restart` after changing the
/// project (which `resume` refuses, saying what changed).
@Suite struct AdviceThatWorksTests {
    /// A project of a good photo and a damaged one (a JPEG cut short: its header reads, its data
    /// does not), exported into a folder; the run fails on the damaged photo.
    private struct FailedExport {
        let fixture = CLIFixture()
        var project: URL { fixture.folder.url.appendingPathComponent("p") }
        var output: String { fixture.folder.path("out") }
        let failed: CLIProcess.Result

        init() throws {
            let fm = FileManager.default
            let project = fixture.folder.url.appendingPathComponent("p")
            try fm.createDirectory(at: project, withIntermediateDirectories: true)
            try fm.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"), to: project.appendingPathComponent("good.jpg"))
            try fm.copyItem(at: HostileCorpus.url("truncated.jpg"), to: project.appendingPathComponent("broken.jpg"))
            try Self.manifest(["good.jpg", "broken.jpg"]).write(to: project.appendingPathComponent("project.json"))
            failed = try fixture.run("export", [project.path, "--output", fixture.folder.path("out")])
        }

        static func manifest(_ paths: [String]) -> Data {
            let assets = paths.map { #"{"path": "\#($0)"}"# }.joined(separator: ", ")
            return Data(#"{"version": 1, "name": "p", "assets": [\#(assets)], "export": {"package": {"format": "folder"}}}"#.utf8)
        }
    }

    @Test func resumeAfterFixingTheFileFinishesTheExport() throws {
        let export = try FailedExport()
        #expect(export.failed.status == 65, "\(export.failed.stderr)")
        #expect(export.failed.stderr.contains("broken.jpg"))
        let fm = FileManager.default
        try fm.removeItem(at: export.project.appendingPathComponent("broken.jpg"))
        try fm.copyItem(at: sampleProject.appendingPathComponent("overlay-alpha-480x480.png"),
                        to: export.project.appendingPathComponent("broken.jpg"))
        let resumed = try CLIProcess.run(try SuggestedCommand.after("Resume with: ", in: export.failed.stderr))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try fm.contentsOfDirectory(atPath: export.output).sorted() == ["broken.jpg", "good.jpg", "manifest.json"])
    }

    @Test func resumeSaysWhatChangedInTheProjectAndRestartRedoesItFromTheProjectAsItIsNow() throws {
        let export = try FailedExport()
        #expect(export.failed.status == 65, "\(export.failed.stderr)")
        try FailedExport.manifest(["good.jpg"]).write(to: export.project.appendingPathComponent("project.json"))

        let resumed = try CLIProcess.run(try SuggestedCommand.after("Resume with: ", in: export.failed.stderr))
        #expect(resumed.status == 65)
        #expect(resumed.stderr.contains("project.json changed since job "), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("was planned: broken.jpg was removed. Resuming would export the project as it was"))
        #expect(!FileManager.default.fileExists(atPath: export.output))

        let restarted = try CLIProcess.run(try SuggestedCommand.after("run `", in: resumed.stderr))
        #expect(restarted.status == 0, "\(restarted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: export.output).sorted() == ["good.jpg", "manifest.json"])

        // The failure's own advice to restart names the same command.
        #expect(try SuggestedCommand.after("redo it with: ", in: export.failed.stderr)
                == SuggestedCommand.after("run `", in: resumed.stderr))
        let jobs = try export.fixture.run("jobs")
        #expect(jobs.stdout.split(separator: "\n").count == 2, "the restarted job only; the failed one is discarded: \(jobs.stdout)")
    }

    @Test func aBatchRestartedAfterItsFileIsFixedIsPlannedAgain() throws {
        let fixture = CLIFixture()
        let good = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let later = fixture.folder.path("later.jpg")
        try FileManager.default.copyItem(at: HostileCorpus.url("truncated.jpg"), to: URL(fileURLWithPath: later))
        let output = fixture.folder.path("out")
        let failed = try fixture.run("compress", [good, later, "--output", output])
        #expect(failed.status == 65, "\(failed.stderr)")
        try FileManager.default.removeItem(atPath: later)
        try FileManager.default.copyItem(atPath: good, toPath: later)
        let restart = try SuggestedCommand.after("redo it with: ", in: failed.stderr)
        let restarted = try CLIProcess.run(restart)
        #expect(restarted.status == 0, "\(restarted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["later.jpg", "report.json", "small-640x480.jpg"])
        // The same advice again starts the work once more, which the finished output refuses.
        let twice = try CLIProcess.run(restart)
        #expect(twice.status == 65, "\(twice.stderr)")
        #expect(twice.stderr.contains("already exists; choose another output or pass --overwrite"), "\(twice.stderr)")
    }
}

/// The command a message suggests, read as a person copies it.
enum SuggestedCommand {
    /// The command after `lead` (up to the end of its line or a closing backtick, before any
    /// "(or …)"), as arguments for the binary.
    static func after(_ lead: String, in text: String) throws -> [String] {
        let start = try #require(text.range(of: lead), "the message suggests \(lead) in: \(text)").upperBound
        let line = text[start...].prefix { $0 != "\n" && $0 != "`" }
        let command = line.components(separatedBy: "   (or").first!.trimmingCharacters(in: .whitespaces)
        let words = command.split(separator: " ").map(String.init)
        #expect(words.first == "mediajob", "\(command)")
        return Array(words.dropFirst())
    }
}

/// The job-management messages' suggestions, followed as printed.
@Suite struct JobAdviceTests {
    @Test func anEmptyStateFolderSuggestsASelfTestAndAnUnknownJobSuggestsTheList() throws {
        let fixture = CLIFixture()
        let empty = try fixture.run("jobs")
        let selftest = try CLIProcess.run(try SuggestedCommand.after("Start one with: ", in: empty.stderr) + ["--unit-ms", "1"])
        #expect(selftest.status == 0, "\(selftest.stderr)")
        let unknown = try fixture.run("status", ["deadbeef"])
        #expect(unknown.status == 64)
        let list = try CLIProcess.run(try SuggestedCommand.after("List jobs with: ", in: unknown.stderr))
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 2, "the self-test the first advice started: \(list.stdout)")
    }

    @Test func onlyHiddenJobsSuggestAll() throws {
        let fixture = CLIFixture()
        let failed = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1) + ["--fail-at", "1"])
        let id = try #require(failed.events.first?[string: "job_id"])
        #expect(try fixture.run("discard", [id]).status == 0)
        let hidden = try fixture.run("jobs")
        #expect(hidden.stdout.isEmpty)
        let all = try CLIProcess.run(try SuggestedCommand.after("listed with: ", in: hidden.stderr))
        #expect(all.status == 0)
        #expect(all.stdout.contains(id.prefix(8)) && all.stdout.contains("discarded"), "\(all.stdout)")
    }

    /// `cancel` of a job that has stopped already, paused by Ctrl-C or interrupted by a kill (each
    /// sent while its second chunk is held), is refused with the next step `status` names; followed
    /// as printed, it finishes the job.
    @Test(arguments: [(SIGINT, "paused"), (SIGKILL, "interrupted")])
    func cancellingAStoppedJobSuggestsResumingItAndResumingFinishesIt(signal: Int32, state: String) throws {
        let fixture = CLIFixture()
        let held = try HeldStep(in: fixture.folder)
        let units = 5
        let job = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 10),
                                    environment: held.environment(point: "chunk", hit: 2))
        let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
        let id = String(try #require(submitted[string: "job_id"]).prefix(8))
        try #require(held.waitUntil(job, isHeldAt: "the second chunk"))
        job.send(signal)
        if signal == SIGINT { try #require(job.waitForStderr(containing: "Stopping at the next chunk boundary")) }
        held.release()
        _ = job.finish("stop")
        #expect(try fixture.status(id)[string: "state"] == state)

        let cancel = try fixture.run("cancel", [id])
        #expect(cancel.status == 69)
        #expect(cancel.stderr.contains("job \(id) is \(state); only queued or running jobs can be cancelled"), "\(cancel.stderr)")
        #expect(cancel.stderr.contains("Next: mediajob resume \(id) --state-dir "), "\(cancel.stderr)")
        #expect(cancel.stderr.contains("(or restart / discard)"), "\(cancel.stderr)")
        let resumed = try CLIProcess.run(try SuggestedCommand.after("Next: ", in: cancel.stderr))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try fixture.result().committed == Array(0..<units))
    }

    @Test func theSameWorkAgainSuggestsWatchingTheJobThatHasIt() throws {
        let fixture = CLIFixture()
        let arguments = fixture.selftest(units: 40, unitMilliseconds: 50)
        let running = try fixture.start("selftest", arguments)
        let first = try #require(running.waitForEvent { $0[string: "event"] == "progress" }, "the first job made progress")
        let again = try fixture.run("selftest", arguments)
        #expect(again.status == 69)
        let watch = try SuggestedCommand.after("Next: ", in: again.stderr)
        #expect(watch.prefix(3) == ["status", String(try #require(first[string: "job_id"]).prefix(8)), "--watch"], "\(watch)")
        let watched = try CLIProcess.run(watch)
        #expect(watched.status == 0, "the watch ends with the job's outcome: \(watched.stderr)")
        #expect(running.finish().status == 0)
    }
}
