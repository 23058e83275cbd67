import EngineTestKit
import MediaTestKit
import Foundation
import Testing

/// A newcomer's mistakes (issue 14): each error points at what is wrong and what to type instead,
/// and familiar spellings are understood.
@Suite struct ErrorsThatPointTests {
    @Test func aMisspeltCommandSuggestsTheNearest() throws {
        let result = try CLIProcess.run(["exprot", "Media/sample"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown command 'exprot'; did you mean 'export'?\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aMisspeltOptionSuggestsTheNearest() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("export", [sampleProject.path, "--ouput", fixture.folder.path("x.zip")])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown option '--ouput' for 'export'; did you mean '--output'?\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("x.zip")))
    }

    @Test func aWordFarFromEveryCommandSuggestsNothing() throws {
        let result = try CLIProcess.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("did you mean"))
    }

    @Test func dashCapitalVPrintsTheVersion() throws {
        let result = try CLIProcess.run(["-V"])
        #expect(result.status == 0)
        #expect(result.stdout == (try CLIProcess.run(["--version"])).stdout)
        #expect(result.stdout.hasPrefix("mediajob "))
    }

    /// A comma missing at the end of line 3: the error points at the next field's quote, on line 4
    /// column 3 (counted by hand).
    @Test func invalidJSONNamesTheLineTheColumnAndWhatWasExpected() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture, manifest: "{\n  \"version\": 1,\n  \"name\": \"x\"\n  \"assets\": []\n}\n")
        let result = try fixture.run("export", [project.path])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(project.path)/project.json: is not valid JSON at line 4, column 3: expected ',' or '}', found '\"'.\n")
    }

    @Test func singleQuotesAreNamedToo() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture, manifest: "{\n  'version': 1\n}")
        let result = try fixture.run("export", [project.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains(#"is not valid JSON at line 2, column 3: expected a field name in double quotes or '}', found '''"#),
                "\(result.stderr)")
    }

    @Test func jpgMeansJPEGInAManifestAndTheManifestFileNamesTheProject() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture, manifest: """
            {"version": 1, "name": "x", "assets": [{"path": "small.jpg", "output": "small"}],
             "export": {"image": {"format": "jpg"}, "package": {"format": "folder", "name": "out"}}}
            """)
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"),
                                         to: project.appendingPathComponent("small.jpg"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.appendingPathComponent("project.json").path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let photo = try Data(contentsOf: URL(fileURLWithPath: output + "/small.jpg"))
        #expect(Array(photo.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG's first bytes")
    }

    @Test func compressMaxSizeWithOneNumberBoundsTheLongestSide() throws {
        let fixture = CLIFixture()
        let landscape = sampleProject.appendingPathComponent("landscape-3000x2000.jpg").path
        let portrait = sampleProject.appendingPathComponent("portrait-1200x1800.jpg").path
        let output = fixture.folder.path("out")
        // --format: re-encoded even where the copy would be smaller, as this synthetic portrait's is.
        let result = try fixture.run("compress", [landscape, portrait, "--output", output, "--max-size", "1600", "--format", "jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.header(output + "/landscape-3000x2000.jpg", "width") == "1600")
        #expect(try Self.header(output + "/portrait-1200x1800.jpg", "height") == "1600")
    }

    @Test func compressFormatReencodesEveryPhotoInIt() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let output = fixture.folder.path("out")
        let result = try fixture.run("compress", [photo, "--output", output, "--format", "WEBP", "--quality", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        let webp = output + "/small-640x480.webp"
        #expect(try Self.header(webp, "vips-loader").hasPrefix("webp"))
        #expect(try Self.header(webp, "width") == "640")
        let refused = try fixture.run("compress", [photo, "--output", fixture.folder.path("gif"), "--format", "gif"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("Error: --format must be one of jpeg, webp, avif, png, got 'gif'.\n"), "\(refused.stderr)")
    }

    @Test func oneFileIsOneFileAndNoSentenceEndsTwice() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("thumbnail", [photo, "--output", fixture.folder.path("t")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Starting job") && result.stderr.contains(": Thumbnails of 1 file\n"), "\(result.stderr)")
        #expect(result.stderr.contains("1 of 1 unit to do"), "\(result.stderr)")
        let missing = try fixture.run("export", [fixture.folder.path("nowhere")])
        #expect(missing.status == 65 && missing.stderr.hasPrefix("Error: "))
        for line in (missing.stderr + result.stderr).split(separator: "\n") where !line.contains("[") { // not the bar
            #expect(!line.contains("..") && !line.contains("?."), "\(line)")
        }
    }

    static func project(in fixture: CLIFixture, manifest: String) throws -> URL {
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return project
    }

    static func header(_ path: String, _ field: String) throws -> String {
        try MediaFixtures.run("/usr/bin/vipsheader", ["-f", field, path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
