import Archive
import EngineTestKit
import MediaTestKit
import Foundation
import Testing

/// `mediajob init` (issue 14): from a folder of one's own media to a zip in two commands.
@Suite struct InitTests {
    /// A folder as a person has it: a photo, a PNG under a JPEG name, a video under a PNG name in
    /// a subfolder, notes, a hidden file and a link to a file that is gone.
    private static func mediaFolder(in fixture: CLIFixture) throws -> URL {
        let folder = fixture.folder.url.appendingPathComponent("My media")
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("trip"), withIntermediateDirectories: true)
        try fm.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"), to: folder.appendingPathComponent("b.jpg"))
        try fm.copyItem(at: sampleProject.appendingPathComponent("overlay-alpha-480x480.png"),
                        to: folder.appendingPathComponent("a-png-named.jpg"))
        try fm.copyItem(at: HostileCorpus.url("good-clip.mp4"), to: folder.appendingPathComponent("trip/clip.png"))
        try Data("shopping list".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("hidden".utf8).write(to: folder.appendingPathComponent(".hidden.jpg"))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("gone.jpg").path, withDestinationPath: "/nonexistent/gone.jpg")
        return folder
    }

    /// `mediajob arguments…` in the fixture's folder (with its state folder for job commands).
    private static func run(_ arguments: [String], in fixture: CLIFixture) throws -> CLIProcess.Result {
        let state = arguments.first == "init" ? [] : ["--state-dir", fixture.stateDir]
        return try CLIProcess.run(arguments + state, workingDirectory: fixture.folder.url)
    }

    @Test func initFindsPhotosAndVideosByContentAndItsAdviceExportsThem() throws {
        let fixture = CLIFixture()
        let folder = try Self.mediaFolder(in: fixture)
        let result = try Self.run(["init", "My media"], in: fixture)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Found 2 photos and 1 video in My media; left out 2 files:", "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("  gone.jpg: ") })
        #expect(lines.contains { $0.hasPrefix("  notes.txt: ") && $0.contains("neither a photo nor a video") })
        #expect(!result.stderr.contains("hidden"))
        #expect(lines.last == "Export it with: mediajob export 'My media'")

        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("project.json"))) as? [String: Any])
        let assets = try #require(manifest["assets"] as? [[String: Any]])
        #expect(assets.compactMap { $0["path"] as? String } == ["a-png-named.jpg", "b.jpg", "trip/clip.png"])
        #expect(manifest["name"] as? String == "My media")

        // The command it suggests, as suggested.
        let export = try Self.run(["export", "My media"], in: fixture)
        #expect(export.status == 0, "\(export.stderr)")
        let zip = fixture.folder.path("My media.zip")
        let names = try ZipReader.entries(of: zip).map(\.name).sorted()
        #expect(names == ["a-png-named.jpg", "b.jpg", "clip.mp4", "manifest.json"])
    }

    @Test func initKeepsAnExistingProjectUnlessForcedAndItsAdviceWorks() throws {
        let fixture = CLIFixture()
        let folder = try Self.mediaFolder(in: fixture)
        let file = folder.appendingPathComponent("project.json")
        try Data("mine".utf8).write(to: file)
        let refused = try Self.run(["init", "My media"], in: fixture)
        #expect(refused.status == 65)
        #expect(refused.stderr == """
            Error: \(file.path) already exists.
            Export it with: mediajob export 'My media'
            Or replace it with: mediajob init 'My media' --force

            """)
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
        let forced = try Self.run(["init", "My media", "--force"], in: fixture)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"trip/clip.png\""))
    }

    @Test func aFolderWithoutMediaGetsNoProject() throws {
        let fixture = CLIFixture()
        let folder = fixture.folder.url.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("text".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        let result = try Self.run(["init", "docs"], in: fixture)
        #expect(result.status == 65)
        #expect(result.stderr.contains("Found 0 photos and 0 videos in docs; left out 1 file:"), "\(result.stderr)")
        #expect(result.stderr.contains("Error: there is nothing to export in docs"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("project.json").path))
    }

    @Test func filesSharingANameGetOutputsThatShowTheirSource() throws {
        let fixture = CLIFixture()
        let folder = fixture.folder.url.appendingPathComponent("same")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"),
                                         to: folder.appendingPathComponent("p3.jpg"))
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("overlay-alpha-480x480.png"),
                                         to: folder.appendingPathComponent("p3.png"))
        #expect(try Self.run(["init", "same"], in: fixture).status == 0)
        let export = try Self.run(["export", "same"], in: fixture)
        #expect(export.status == 0, "\(export.stderr)")
        let names = try ZipReader.entries(of: fixture.folder.path("same.zip")).map(\.name).sorted()
        #expect(names == ["manifest.json", "p3-jpg.jpg", "p3-png.jpg"])
    }
}
