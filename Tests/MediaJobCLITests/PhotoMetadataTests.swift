import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// The metadata policy through the `mediajob` binary, for re-encoded and copied photos, read
/// back with `exiftool`.
@Suite struct PhotoMetadataTests {
    private func tagged(_ fixture: CLIFixture, _ name: String) throws -> String {
        let path = fixture.folder.path(name)
        try PhotoFixtures.picture(path.hasSuffix(".jpg") ? "\(path)[Q=60]" : path, width: 64, height: 48)
        try PhotoFixtures.writeTags(PhotoFixtures.keptTags + PhotoFixtures.privateTags, to: path)
        return path
    }

    private func report(_ folder: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/report.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    @Test func compressRewritesCopiedJPEGsAndPNGsWithoutPrivateTagsAndReencodesOtherCopies() throws {
        guard ImageFormat.avif.isAvailable else { return }  // HEIC inputs need libheif's encoder
        let fixture = CLIFixture()
        let jpeg = try tagged(fixture, "small.jpg"), png = try tagged(fixture, "other.png")
        let heic = try tagged(fixture, "third.heic")
        let output = fixture.folder.path("out")
        let result = try fixture.run("compress", [jpeg, png, heic, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let items = try report(output)
        #expect(items.map { $0["copied"] as? Bool } == [true, true, false],
                "the JPEG and the PNG are kept, rewritten; the HEIC is re-encoded rather than copied with its tags: \(items)")
        for name in ["small.jpg", "other.png", "third.jpg"] {
            let tags = try PhotoFixtures.exif("\(output)/\(name)")
            #expect(tags["Copyright"] as? String == "Someone 2026" && tags["DateTimeOriginal"] != nil, "\(name)")
            for tag in PhotoFixtures.privateNames { #expect(tags[tag] == nil, "\(name): \(tag) is still there") }
        }
        #expect(try PhotoFixtures.meanDifference("\(output)/small.jpg", jpeg) == 0, "pixels untouched")
        #expect(try PhotoFixtures.meanDifference("\(output)/other.png", png) == 0, "pixels untouched")
    }

    @Test func keepMetadataCopiesTheFileAsItIs() throws {
        let fixture = CLIFixture()
        let jpeg = try tagged(fixture, "small.jpg")
        let output = fixture.folder.path("out")
        let result = try fixture.run("compress", [jpeg, "--output", output, "--keep-metadata"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(output)/small.jpg")) == Data(contentsOf: URL(fileURLWithPath: jpeg)))
    }

    @Test(arguments: ["safe", "all"])
    func anExportFollowsTheManifestsMetadataSetting(policy: String) throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try PhotoFixtures.picture(project.appendingPathComponent("photo.jpg").path, width: 64, height: 48)
        try PhotoFixtures.writeTags(PhotoFixtures.keptTags + PhotoFixtures.privateTags,
                                    to: project.appendingPathComponent("photo.jpg").path)
        let manifest = #"{"version": 1, "name": "m", "assets": [{"path": "photo.jpg"}], "export": {"metadata": "\#(policy)", "package": {"format": "folder"}}}"#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try PhotoFixtures.exif("\(output)/photo.jpg")
        #expect(tags["Artist"] as? String == "Ann Example")
        #expect((tags["GPSLatitude"] != nil) == (policy == "all"), "\(policy)")
        #expect((tags["Creator"] != nil) == (policy == "all"), "\(policy)")
    }
}
