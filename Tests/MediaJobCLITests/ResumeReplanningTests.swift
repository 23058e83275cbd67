import EngineTestKit
import Foundation
import JobEngine
import MediaJobs
import MediaTestKit
@testable import SQLiteJobStore
import Testing

/// `resume` after the person fixed what failed (issue 14, "Advice that works"): an export whose
/// project changed in its failed or skipped assets alone plans those again and keeps its finished
/// chunks, and the package is byte-identical to a fresh export of the project as it is now. A
/// change anywhere else is refused, naming `restart`, as is a job recorded before the manifest's
/// place was kept.
@Suite struct ResumeReplanningTests {
    /// A project folder `p` holding a good photo, a damaged one (`broken.jpg`: its header reads,
    /// its data does not) and a good replacement (`fixed.png`), exported as a zip.
    private struct Project {
        let fixture = CLIFixture()
        var folder: URL { fixture.folder.url.appendingPathComponent("p") }
        var output: String { fixture.folder.path("out.zip") }

        init() throws {
            let fm = FileManager.default
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try fm.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"), to: folder.appendingPathComponent("good.jpg"))
            try fm.copyItem(at: HostileCorpus.url("truncated.jpg"), to: folder.appendingPathComponent("broken.jpg"))
            try fm.copyItem(at: sampleProject.appendingPathComponent("overlay-alpha-480x480.png"),
                            to: folder.appendingPathComponent("fixed.png"))
        }

        /// Writes `project.json` naming `assets` (a path, and edits as JSON) in order.
        func write(_ assets: [(path: String, edits: String)], name: String = "p") throws {
            let entries = assets.map { #"{"path": "\#($0.path)", "edits": \#($0.edits)}"# }.joined(separator: ", ")
            try Data(#"{"version": 1, "name": "\#(name)", "assets": [\#(entries)], "export": {"package": {"format": "zip"}}}"#.utf8)
                .write(to: folder.appendingPathComponent("project.json"))
        }

        /// Exports the project, failing on `broken.jpg`.
        func failedExport() throws -> CLIProcess.Result {
            try write([("good.jpg", "{}"), ("broken.jpg", #"{"rotate": 90}"#)])
            let failed = try fixture.run("export", [folder.path, "--output", output])
            #expect(failed.status == 65, "\(failed.stderr)")
            #expect(failed.stderr.contains("broken.jpg"), "\(failed.stderr)")
            return failed
        }

        /// The full id of the job a suggested command names.
        func jobID(in command: [String]) throws -> String {
            try #require(try fixture.status(command[1])[string: "job_id"])
        }

        /// The zip a fresh export of the project as it is now makes, into another file.
        func freshExport() throws -> Data {
            let reference = fixture.folder.path("reference.zip")
            let fresh = try fixture.run("export", [folder.path, "--output", reference])
            #expect(fresh.status == 0, "\(fresh.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: reference))
        }
    }

    @Test func resumeAfterCorrectingTheFailedAssetsEntryExportsTheProjectAsItIsNowKeepingFinishedChunks() throws {
        let project = try Project()
        let failed = try project.failedExport()
        try project.write([("good.jpg", "{}"), ("fixed.png", #"{"rotate": 90}"#)])

        let resume = try SuggestedCommand.after("Resume with: ", in: failed.stderr)
        let resumed = try CLIProcess.run(resume)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("1 of 2 units to do"), "only the corrected asset is owed: \(resumed.stderr)")
        let job = try StoredJob(project.fixture, id: try project.jobID(in: resume))
        #expect(try job.checkpointedChunks.filter { $0 == 0 }.count == 1, "the good photo's finished chunk was kept")
        #expect(try job.journalHas("replan", "true"))

        let package = try Data(contentsOf: URL(fileURLWithPath: project.output))
        #expect(package == (try project.freshExport()), "the package is byte-identical to a fresh export of the corrected project")
    }

    @Test func resumeAfterASkippedFileNowExistsIncludesItAsAFreshExportWould() throws {
        let project = try Project()
        try project.write([("good.jpg", "{}"), ("later.jpg", "{}")])
        // Killed once the package is built, before it is published: both chunks are done, the
        // missing file's as skipped.
        let killed = try project.fixture.run("export", [project.folder.path, "--output", project.output, "--skip-bad", "--json"],
                                             environment: ["MEDIAJOB_FAULT": "finalize:1:kill"])
        #expect(killed.status != 0 && !FileManager.default.fileExists(atPath: project.output), "\(killed.stderr)")
        let id = try #require(killed.stdout.split(separator: "\n").compactMap(CLIProcess.object).first?[string: "job_id"])
        #expect(try StoredJob(project.fixture, id: id).doneChunks == [0, 1])
        try FileManager.default.copyItem(at: project.folder.appendingPathComponent("fixed.png"),
                                         to: project.folder.appendingPathComponent("later.jpg"))

        let status = try project.fixture.run("status", [id])
        #expect(status.stdout.contains("skipped"), "status lists the skipped file: \(status.stdout)")
        let resumed = try CLIProcess.run(try SuggestedCommand.after("next:", in: status.stdout))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try StoredJob(project.fixture, id: id).checkpointedChunks.filter { $0 == 0 }.count == 1,
                "the good photo's finished chunk was kept")

        let package = try Data(contentsOf: URL(fileURLWithPath: project.output))
        #expect(package == (try project.freshExport()), "the package is byte-identical to a fresh export with the file there")
    }

    @Test func aCorrectionThatNamesAMissingFileIsRefusedBeforeAnyWorkAndTheSuggestedResumeWorksOnceFixed() throws {
        let project = try Project()
        let failed = try project.failedExport()
        try project.write([("good.jpg", "{}"), ("fixd.png", #"{"rotate": 90}"#)])

        let resume = try SuggestedCommand.after("Resume with: ", in: failed.stderr)
        let refused = try CLIProcess.run(resume)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("1 input cannot be used: assets[1] (fixd.png)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("--skip-bad"), "resume takes no --skip-bad: \(refused.stderr)")
        #expect(try project.fixture.status(resume[1])[string: "state"] == "failed", "the job stays as it was")

        try project.write([("good.jpg", "{}"), ("fixed.png", #"{"rotate": 90}"#)])
        let resumed = try CLIProcess.run(try SuggestedCommand.after("then run `", in: refused.stderr))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let package = try Data(contentsOf: URL(fileURLWithPath: project.output))
        #expect(package == (try project.freshExport()))
    }

    @Test func aChangeBeyondTheFailedAssetIsRefusedSayingWhatChangedAndRestartRedoesIt() throws {
        let project = try Project()
        let failed = try project.failedExport()
        try project.write([("good.jpg", #"{"rotate": 180}"#), ("fixed.png", #"{"rotate": 90}"#)], name: "renamed")

        let resumed = try CLIProcess.run(try SuggestedCommand.after("Resume with: ", in: failed.stderr))
        #expect(resumed.status == 65)
        for change in ["the name changed from 'p' to 'renamed'", "broken.jpg was removed", "fixed.png was added",
                       "the edits of good.jpg changed"] {
            #expect(resumed.stderr.contains(change), "\(resumed.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.output))

        let restarted = try CLIProcess.run(try SuggestedCommand.after("run `", in: resumed.stderr))
        #expect(restarted.status == 0, "\(restarted.stderr)")
        let package = try Data(contentsOf: URL(fileURLWithPath: project.output))
        #expect(package == (try project.freshExport()))
    }

    @Test func aJobRecordedBeforeTheManifestsPlaceWasKeptSaysToRestart() throws {
        let project = try Project()
        let failed = try project.failedExport()
        let resume = try SuggestedCommand.after("Resume with: ", in: failed.stderr)
        let id = try project.jobID(in: resume)
        try forgetManifestSource(of: id, in: project.fixture)
        try FileManager.default.removeItem(at: project.folder.appendingPathComponent("broken.jpg"))
        try FileManager.default.copyItem(at: project.folder.appendingPathComponent("fixed.png"),
                                         to: project.folder.appendingPathComponent("broken.jpg"))

        let resumed = try CLIProcess.run(resume)
        #expect(resumed.status == 65)
        #expect(resumed.stderr.contains("was planned by an earlier mediajob, which did not keep where its project.json is"),
                "\(resumed.stderr)")
        let restarted = try CLIProcess.run(try SuggestedCommand.after("run `", in: resumed.stderr))
        #expect(restarted.status == 0, "\(restarted.stderr)")
        let package = try Data(contentsOf: URL(fileURLWithPath: project.output))
        #expect(package == (try project.freshExport()))
    }

    /// Rewrites the stored export settings of job `id` as a mediajob that kept no manifest
    /// source wrote them.
    private func forgetManifestSource(of id: String, in fixture: CLIFixture) throws {
        let stored = try #require(try fixture.store().job(JobID(rawValue: id)))
        var spec = try JSONDecoder().decode(ExportJob.Spec.self, from: stored.spec)
        #expect(spec.source != nil)
        spec.source = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let database = try SQLiteDatabase(path: fixture.folder.path("state/jobs.sqlite"))
        try database.prepare("UPDATE job_specs SET spec = ?2 WHERE job_id = ?1").run([.text(id), .blob(try encoder.encode(spec))])
    }
}
