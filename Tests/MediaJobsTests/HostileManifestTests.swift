import EngineTestKit
import Foundation
@testable import MediaJobs
import Testing

/// Manifests built to hurt the reader rather than to be wrong in one field: too deep, too large,
/// or not a file at all. Each must end in a ``ManifestError`` at once — no crash, no hang, no
/// unbounded memory. Field-by-field mistakes are in ``ManifestTests``.
@Suite struct HostileManifestTests {
    let folder = TemporaryDirectory()
    var file: URL { folder.url.appendingPathComponent(ProjectLoader.manifestName) }

    func error() throws -> ManifestError {
        try #require(throws: ManifestError.self) { try ProjectLoader.load(folder.url) }
    }

    @Test(arguments: [10_000, 100_000])
    func deeplyNestedJSONIsRefusedWithoutExhaustingTheStack(depth: Int) throws {
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        try Data(#"{"version": 1, "name": "deep", "assets": \#(nested)}"#.utf8).write(to: file)
        let error = try error()
        #expect(error.message.contains("project.json"))
        #expect(error.field == "" || error.field.hasPrefix("assets"), "\(error.message)")
    }

    @Test func aFiftyMegabyteManifestIsRefusedBeforeItIsParsed() throws {
        // Valid JSON: one asset whose output name is 50 MB long, so only the size check can stop it early.
        let filler = String(repeating: "a", count: 50 << 20)
        try Data(#"{"version": 1, "name": "big", "assets": [{"path": "a.jpg", "output": "\#(filler)"}]}"#.utf8).write(to: file)
        let error = try error()
        #expect(error.field == "")
        #expect(error.problem.contains("50 MB") && error.problem.contains("at most 8 MB"), "\(error.problem)")
    }

    @Test func aManifestJustUnderTheLimitIsRead() throws {
        let assets = (0..<1_000).map { #"{"path": "a.jpg", "output": "a\#($0)"}"# }.joined(separator: ", ")
        var text = #"{"version": 1, "name": "many", "assets": [\#(assets)]}"#
        text += String(repeating: " ", count: ProjectLoader.maxManifestBytes - text.utf8.count)
        try Data(text.utf8).write(to: file)
        #expect(try ProjectLoader.load(folder.url).assets.count == 1_000)
    }

    @Test func aFIFONamedProjectJSONIsRefusedWithoutWaitingForAWriter() throws {
        #expect(mkfifo(file.path, 0o644) == 0)
        let error = try error()
        #expect(error.problem.contains("not a regular file"), "\(error.problem)")
    }

    @Test func aLinkToAnEndlessDeviceIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        #expect(try error().problem.contains("not a regular file"))
    }

    @Test func aFolderNamedProjectJSONIsRefused() throws {
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(try error().problem.contains("not a regular file"))
    }

    @Test func aManifestThatIsNotUTF8IsInvalidJSON() throws {
        try Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]).write(to: file) // {"\xC3(":1}
        #expect(try error().problem.contains("not valid JSON"))
    }
}
