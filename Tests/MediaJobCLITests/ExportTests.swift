import EngineTestKit
import Archive
import Foundation
import Glibc
import MediaTestKit
import Testing
import Vips

/// The sample project in `Media/sample`, found from this file's place in the repository.
let sampleProject: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Media/sample")

@Suite struct ExportTests {
    @Test func theSampleProjectExportsToAValidatedZip() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("sample.zip")
        let result = try fixture.run("export", [sampleProject.path, "--output", output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events.last?[string: "outcome"] == "completed")
        let names = try ZipReader.entries(of: output).map(\.name)
        #expect(names.last == "manifest.json")
        #expect(names.contains { $0.hasSuffix(".mp4") })
        #expect(names.filter { $0.hasSuffix(".jpg") }.count >= 4)
        let manifest = try PackageListing(zip: output)
        #expect(manifest.files.map(\.path) == Array(names.dropLast()))
        #expect(manifest.skipped.isEmpty)
    }

    @Test func killedAtRandomMomentsAndResumedTheArchiveIsByteIdentical() throws {
        let reference = CLIFixture()
        let referencePath = reference.folder.path("reference.zip")
        #expect(try reference.run("export", [sampleProject.path, "--output", referencePath]).status == 0)
        let expected = try Data(contentsOf: URL(fileURLWithPath: referencePath))
        var random = SplitMix64(seed: 7)
        let trials = 4
        var interrupted = 0
        for trial in 0..<trials {
            let fixture = CLIFixture()
            let output = fixture.folder.path("sample.zip")
            let job = try fixture.start("export", [sampleProject.path, "--output", output, "--json"])
            let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
            let id = try #require(submitted[string: "job_id"])
            // A random moment inside the run: once a random number of chunks (not all) has landed,
            // up to 0.2 s later.
            let total = Int(try #require(submitted[number: "units_total"]))
            let landed = Int.random(in: 0..<total, using: &random)
            if landed > 0 {
                _ = try #require(job.waitForEvent("\(landed) chunks landed") { $0[number: "units_done"] == Double(landed) })
            }
            usleep(UInt32.random(in: 0...200_000, using: &random)) // picks the moment; whether it interrupted is counted below
            job.send(SIGKILL)
            _ = job.finish()
            if try fixture.status(id)[string: "state"] != "completed" {
                interrupted += 1
                #expect(!FileManager.default.fileExists(atPath: output), "trial \(trial): nothing partial is published")
                let resumed = try fixture.run("resume", [id])
                #expect(resumed.status == 0, "trial \(trial): \(resumed.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == expected, "trial \(trial)")
        }
        #expect(interrupted >= trials - 1, "only \(interrupted) of \(trials) kills landed before the export completed")
    }
}

/// A package's manifest.json, read back from the zip.
struct PackageListing: Decodable {
    struct File: Decodable { var path: String; var size: Int64; var sha256: String }
    var name: String
    var files: [File]
    var skipped: [String]
    var dropped: [String]

    init(zip: String) throws {
        var data = Data()
        try ZipReader.forEachEntry(of: zip) { info, contents in
            if info.name == "manifest.json" { try contents.readChunks { data.append(contentsOf: $0) } }
        }
        self = try JSONDecoder().decode(PackageListing.self, from: data)
    }
}

@Suite struct ExportStopTests {
    @Test func sigintPausesAnExportInsideASegmentAndResumeFinishesIt() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try MediaFixtures.clip(project.appendingPathComponent("long.mp4").path, size: "1280x720", seconds: 8)
        try Data(#"{"version": 1, "name": "p", "assets": [{"path": "long.mp4"}], "export": {"video": {"preset": "medium"}}}"#.utf8)
            .write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("p.zip")
        let job = try fixture.start("export", [project.path, "--output", output, "--json"])
        let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
        let id = try #require(submitted[string: "job_id"])
        // A segment is being encoded once its temporary output exists in the workspace.
        let stored = try StoredJob(fixture, id: id)
        let workspace = try #require(try stored.store.job(stored.id)?.workspace)
        job.waitUntil("a segment being encoded in \(workspace)") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: workspace)) ?? []
            return names.contains { $0.hasPrefix(".tmp-") && $0.contains("segment-") }
        }
        job.send(SIGINT)
        let stopped = job.finish()
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(try fixture.status(id)[string: "state"] == "paused")
        #expect(try stored.store.chunks(of: stored.id).filter { $0.isDone && $0.plan.stage == .encode }.isEmpty,
                "the segment in hand was abandoned between frames, not finished")
        #expect(try stored.uncommittedFiles.isEmpty, "nothing half-written is left")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try fixture.run("resume", [id]).status == 0)
        #expect(try ZipReader.entries(of: output).map(\.name) == ["long.mp4", "manifest.json"])
    }
}
