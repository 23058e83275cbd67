import EngineTestKit
import Foundation
@testable import MediaJobs
@testable import PhotoJobs
import Testing

/// A project folder with a manifest written from text.
private struct ProjectFolder {
    let folder = TemporaryDirectory()

    init(_ manifest: String, files: [String] = ["a.jpg", "clips/b.mp4"]) throws {
        for file in files {
            let url = folder.url.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        try Data(manifest.utf8).write(to: folder.url.appendingPathComponent("project.json"))
    }

    func load() throws -> ProjectManifest { try ProjectLoader.load(folder.url) }

    /// The field and problem of the error loading gives.
    func error() throws -> ManifestError {
        try #require(throws: ManifestError.self) { try load() }
    }
}

private func manifest(assets: String = #"[{"path": "a.jpg"}]"#, export: String = "{}", version: String = "1") -> String {
    #"{"version": \#(version), "name": "Holiday", "assets": \#(assets), "export": \#(export)}"#
}

@Suite struct ManifestTests {
    @Test func aMinimalManifestGetsTheDocumentedDefaults() throws {
        let project = try ProjectFolder(manifest())
        let loaded = try project.load()
        #expect(loaded.assets[0].output == "a")
        #expect(loaded.assets[0].edits == ProjectManifest.Edits())
        #expect(loaded.export == ExportSettings())
        #expect(loaded.export.audio == .copy)
    }

    @Test func everyFieldIsReadAndSurvivesAnEncodeDecodeRoundTrip() throws {
        let project = try ProjectFolder(manifest(
            assets: #"""
            [{"path": "clips/b.mp4", "output": "waves", "edits": {"crop": {"x": 1, "y": 2, "width": 30, "height": 40},
              "rotate": 270, "max_width": 640, "max_height": 480, "exposure": 0.5, "contrast": 1.2, "saturation": 0.8,
              "trim": {"start": 1.5, "end": 3}}}]
            """#,
            export: #"""
            {"image": {"format": "webp", "quality": 70, "profile": "keep"}, "metadata": "all", "video": {"codec": "h264", "crf": 20, "preset": "fast", "max_height": 720},
             "audio": {"codec": "aac", "bitrate": 96000}, "package": {"format": "folder", "name": "out"}}
            """#))
        let loaded = try project.load()
        let edits = loaded.assets[0].edits
        #expect(edits.crop == ProjectManifest.Crop(x: 1, y: 2, width: 30, height: 40))
        #expect(edits.rotate == 270 && edits.maxWidth == 640 && edits.maxHeight == 480)
        #expect(edits.trim == ProjectManifest.Trim(start: 1.5, end: 3))
        #expect(loaded.export.audio == .aac(bitrate: 96000))
        #expect(loaded.export.video.maxHeight == 720)
        #expect(loaded.export.image.profile == .keep && loaded.export.metadata == .all)
        let again = try JSONDecoder().decode(ProjectManifest.self, from: JSONEncoder().encode(loaded))
        #expect(again == loaded)
    }

    @Test func invalidJSONNamesTheFile() throws {
        let error = try ProjectFolder("{ not json").error()
        #expect(error.field.isEmpty)
        #expect(error.message.contains("project.json"))
        #expect(error.problem.contains("not valid JSON"))
    }

    @Test func aMissingManifestSaysWhatAProjectHolds() throws {
        let folder = TemporaryDirectory()
        let error = try #require(throws: ManifestError.self) { try ProjectLoader.load(folder.url) }
        #expect(error.problem.contains("project.json"))
    }

    @Test(arguments: [
        (manifest(version: "2"), "version", "not supported"),
        (manifest(version: "0"), "version", "not supported"),
        (manifest(version: #""1""#), "version", "whole number"),
        (manifest(version: "1.5"), "version", "expected a whole number, got 1.5"),
        ("[]", "", "expected an object"),
        (#"{"version": 1, "name": 5, "assets": []}"#, "name", "expected text"),
        (#"{"version": 1, "name": "x", "assets": "a.jpg"}"#, "assets", "expected a list"),
        (#"{"version": 1, "name": "x", "assets": [{"path": "a.jpg"}], "export": []}"#, "export", "expected an object"),
        (#"{"version": 1, "name": "x", "assets": [{"path": "a.jpg"}], "extra": 1}"#, "extra", "unknown field"),
        (#"{"version": 1, "name": "../../../tmp/evil", "assets": [{"path": "a.jpg"}]}"#, "name", "names the package"),
        (#"{"version": 1, "name": "/etc/cron.d/job", "assets": [{"path": "a.jpg"}]}"#, "name", "must not contain /"),
        (#"{"version": 1, "name": "\u001b]0;pwned\u0007", "assets": [{"path": "a.jpg"}]}"#, "name", "control characters"),
        (#"{"version": 1, "name": "\#(String(repeating: "n", count: 201))", "assets": [{"path": "a.jpg"}]}"#, "name", "at most 200"),
        (manifest(assets: "[]"), "assets", "no assets"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"rotate": "90"}}]"#), "assets[0].edits.rotate", "whole number"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"rotate": 45}}]"#), "assets[0].edits.rotate", "0, 90, 180 or 270"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"max_widht": 10}}]"#), "assets[0].edits.max_widht", "unknown field"),
        (manifest(assets: #"[{"output": "x"}]"#), "assets[0].path", "required"),
        (manifest(assets: #"[{"path": "../etc/passwd"}]"#), "assets[0].path", "climbs out"),
        (manifest(assets: #"[{"path": "/etc/passwd"}]"#), "assets[0].path", "absolute"),
        (manifest(assets: #"[{"path": "a.jpg"}, {"path": "clips/../../x.jpg"}]"#), "assets[1].path", "climbs out"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"max_width": 100000000000000000000000}}]"#),
         "assets[0].edits.max_width", "far too large"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"rotate": 9223372036854775808}}]"#), "assets[0].edits.rotate", "far too large"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"rotate": -9223372036854775809}}]"#), "assets[0].edits.rotate", "far too large"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"exposure": 0.5, "rotate": 90.5}}]"#), "assets[0].edits.rotate", "expected a whole number, got 90.5"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"exposure": 1e308}}]"#), "assets[0].edits.exposure", "between -4 and 4"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"exposure": -1e308}}]"#), "assets[0].edits.exposure", "between -4 and 4"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"trim": {"start": 1e308}}}]"#), "assets[0].edits.trim.start", "between 0"),
        (manifest(assets: #"[{"path": "a.jpg"}, {"path": "clips/a.mp4"}]"#), "assets[1].output", "already the output of assets[0]"),
        (manifest(assets: #"[{"path": "a.jpg", "output": "x/y"}]"#), "assets[0].output", "must not contain /"),
        (manifest(assets: #"[{"path": "a.jpg", "output": "bad\u0007name"}]"#), "assets[0].output", "control characters"),
        (manifest(assets: #"[{"path": "a.jpg", "output": "A"}, {"path": "clips/b.mp4", "output": "a"}]"#),
         "assets[1].output", "already the output of assets[0]"),
        (manifest(assets: #"[{"path": "a.jpg", "output": ".hidden"}]"#), "assets[0].output", "must not start with a dot"),
        (manifest(assets: #"[{"path": "a.jpg", "output": ""}]"#), "assets[0].output", "1 to 200 characters"),
        (manifest(assets: #"[{"path": "a.jpg", "output": "\u202egpj.exe"}]"#), "assets[0].output", "control characters"),
        (manifest(assets: #"[{"path": "a.jpg", "edits": {"trim": {"start": 5, "end": 2}}}]"#), "assets[0].edits.trim.end", "after start"),
        (manifest(export: #"{"image": {"format": "bmp"}}"#), "export.image.format", "must be one of"),
        (manifest(export: #"{"video": {"crf": 99}}"#), "export.video.crf", "between 0 and 51"),
        (manifest(export: #"{"audio": "mp3"}"#), "export.audio", "not an audio setting"),
        (manifest(export: #"{"package": {"format": "tar"}}"#), "export.package.format", "zip or folder"),
        (manifest(export: #"{"image": {"profile": "p3"}}"#), "export.image.profile", #"must be "srgb" or "keep", got 'p3'"#),
        (manifest(export: #"{"metadata": "none"}"#), "export.metadata", #"must be "safe" or "all", got 'none'"#),
    ])
    func eachManifestErrorNamesTheFieldAndTheProblem(_ text: String, _ field: String, _ problem: String) throws {
        let error = try ProjectFolder(text).error()
        #expect(error.field == field)
        #expect(error.problem.contains(problem), "\(error.message)")
        #expect(error.category == .invalidInput)
    }

    @Test func aSymbolicLinkLeadingOutOfTheProjectIsRefused() throws {
        let project = try ProjectFolder(manifest(assets: #"[{"path": "link/passwd"}]"#))
        try FileManager.default.createSymbolicLink(atPath: project.folder.path("link"), withDestinationPath: "/etc")
        let error = try project.error()
        #expect(error.field == "assets[0].path")
        #expect(error.problem.contains("outside the project"))
    }

    @Test func aSymbolicLinkInsideTheProjectIsFine() throws {
        let project = try ProjectFolder(manifest(assets: #"[{"path": "alias.jpg"}]"#))
        try FileManager.default.createSymbolicLink(atPath: project.folder.path("alias.jpg"), withDestinationPath: "a.jpg")
        #expect(try project.load().assets[0].path == "alias.jpg")
    }
}

@Suite struct SampleProjectTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theSampleProjectLoadsAndEveryAssetExists() throws {
        let folder = root.appendingPathComponent("Media/sample")
        let manifest = try ProjectLoader.load(folder)
        #expect(manifest.assets.count == 6)
        for asset in manifest.assets {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(asset.path).path), "\(asset.path)")
        }
    }

    @Test func theReadmeShowsTheSampleManifestVerbatim() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Media/sample/project.json"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```json\n" + manifest + "```"))
    }
}
