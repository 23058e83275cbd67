import EngineTestKit
import MediaTestKit
import Foundation
import Testing

/// Inputs that cannot be used are found when a job is submitted, before any work, all named at
/// once (issue 14), unless --skip-bad leaves them out.
@Suite struct SubmissionCheckTests {
    @Test func missingAndUnrecognisedAssetsAreNamedAtOnceBeforeAnyWork() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"),
                                         to: project.appendingPathComponent("small.jpg"))
        try Data("not a photo".utf8).write(to: project.appendingPathComponent("notes.jpg"))
        try Data(#"""
            {"version": 1, "name": "p", "assets": [{"path": "small.jpg"}, {"path": "gone.jpg"}, {"path": "notes.jpg"}],
             "export": {"package": {"format": "folder", "name": "out"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let refused = try fixture.run("export", [project.path, "--output", output])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("Error: 2 inputs cannot be used: assets[1] (gone.jpg): "), "\(refused.stderr)")
        #expect(refused.stderr.contains("; assets[2] (notes.jpg): '\(project.path)/notes.jpg' is neither a photo nor a video"))
        #expect(refused.stderr.contains("Nothing was done; fix or remove them, or run the command again with --skip-bad to leave them out."))
        #expect(!refused.stderr.contains("Starting job"), "no job ran: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // The advice works: the same command with --skip-bad completes without them.
        let skipping = try fixture.run("export", [project.path, "--output", output, "--skip-bad"])
        #expect(skipping.status == 0, "\(skipping.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["manifest.json", "small.jpg"])
    }

    @Test func aBatchCommandNamesEveryUnusableInputToo() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let missing = [fixture.folder.path("missing.jpg"), fixture.folder.path("gone.mp4")]
        let notes = fixture.folder.path("notes.jpg")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: notes))
        let result = try fixture.run("thumbnail", [photo] + missing + ["--output", fixture.folder.path("t")])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: 2 inputs cannot be used: \(missing[0]): does not exist; \(missing[1]): does not exist."),
                "\(result.stderr)")
        #expect(result.stderr.contains("leave them out"))
        let unrecognised = try fixture.run("thumbnail", [photo, notes, "--output", fixture.folder.path("t")])
        #expect(unrecognised.status == 65)
        #expect(unrecognised.stderr.hasPrefix("Error: 1 input cannot be used: \(notes): "), "\(unrecognised.stderr)")
        #expect(unrecognised.stderr.contains("or run the command again with --skip-bad to leave it out."))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("t")))

        // The advice works: with --skip-bad, the good photo is done and the others are listed.
        let skipping = try fixture.run("thumbnail", [photo, notes] + missing + ["--output", fixture.folder.path("t"), "--skip-bad"])
        #expect(skipping.status == 0, "\(skipping.stderr)")
        struct Index: Decodable { var skipped: [String] }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("t/index.json"))))
        #expect(index.skipped.count == 3, "\(index.skipped)")
    }
}
