import Archive
import Foundation
import Testing

/// A project whose assets are broken in every way the issue names, beside one good photo.
private struct BrokenProject {
    let fixture = CLIFixture()
    var folder: URL { fixture.folder.url.appendingPathComponent("broken") }

    /// Asset name → what must appear in its error.
    static let bad: [(String, String)] = [
        ("corrupt.jpg", "corrupt.jpg"),
        ("truncated.mp4", "truncated.mp4"),
        ("bomb.png", "pixels"),
        ("drawing.svg", "drawing.svg"),
        ("document.pdf", "document.pdf"),
        ("missing.jpg", "missing.jpg"),
        ("folder.jpg", "folder.jpg"),
        ("empty.jpg", "empty.jpg"),
    ]

    init() throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let sample = { (name: String) in sampleProject.appendingPathComponent(name) }
        try fm.copyItem(at: sample("small-640x480.jpg"), to: folder.appendingPathComponent("good.jpg"))
        try fm.copyItem(at: sample("overlay-alpha-480x480.png"), to: folder.appendingPathComponent("lying.jpg"))
        var jpeg = try Data(contentsOf: sample("landscape-3000x2000.jpg"))
        jpeg.replaceSubrange(2_000..<jpeg.count - 2, with: Data(repeating: 0x5A, count: jpeg.count - 2_002))
        try jpeg.write(to: folder.appendingPathComponent("corrupt.jpg"))
        let clip = try Data(contentsOf: sample("clip-720p30-4s.mp4"))
        try clip.prefix(clip.count / 2).write(to: folder.appendingPathComponent("truncated.mp4"))
        try Self.pngHeader(width: 20_000, height: 20_000).write(to: folder.appendingPathComponent("bomb.png"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("drawing.svg"))
        try Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
            .write(to: folder.appendingPathComponent("document.pdf"))
        try fm.createDirectory(at: folder.appendingPathComponent("folder.jpg"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("empty.jpg"))
        let assets = (["good.jpg", "lying.jpg"] + Self.bad.map(\.0)).map { #"{"path": "\#($0)"}"# }
        let manifest = #"{"version": 1, "name": "broken", "assets": [\#(assets.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("project.json"))
    }

    /// A PNG signature, a valid IHDR chunk declaring `width`×`height`, and the start of an IDAT chunk.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var chunk = Data([0x49, 0x48, 0x44, 0x52])
        for value in [width, height] { withUnsafeBytes(of: value.bigEndian) { chunk.append(contentsOf: $0) } }
        chunk.append(contentsOf: [8, 6, 0, 0, 0])
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + chunk
        withUnsafeBytes(of: crc32(chunk).bigEndian) { data.append(contentsOf: $0) }
        return data + Data([0x00, 0x0F, 0x42, 0x40, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x01, 0x02]) // IDAT cut short
    }

    /// The CRC-32 PNG chunks carry.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

@Suite struct BadInputTests {
    @Test func eachBadAssetFailsByNameWhileTheOthersFinishAndNothingIsPublished() throws {
        let project = try BrokenProject()
        let output = project.fixture.folder.path("broken.zip")
        let result = try project.fixture.run("export", [project.folder.path, "--output", output, "--json"])
        #expect(result.status == 65)
        #expect(result.events.last?[string: "outcome"] == "failed")
        #expect(result.stderr.contains("8 items could not be processed"), "\(result.stderr)")
        for (name, words) in BrokenProject.bad {
            #expect(result.stderr.contains(name), "the error names \(name)")
            #expect(result.stderr.contains(words), "the error for \(name) says \(words)")
        }
        #expect(!result.stderr.contains("good.jpg") && !result.stderr.contains("lying.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output), "nothing partial at the destination")
        let id = try #require(result.events.first?[string: "job_id"])
        let status = try project.fixture.status(id)
        #expect(status[string: "state"] == "failed")
        #expect(status[number: "units_done"] == 2, "the good photo and the PNG with a lying name finished")
    }

    @Test func skipBadCompletesAndTheManifestListsWhatWasSkipped() throws {
        let project = try BrokenProject()
        let output = project.fixture.folder.path("broken.zip")
        let result = try project.fixture.run("export", [project.folder.path, "--output", output, "--skip-bad"])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try PackageListing(zip: output)
        #expect(listing.files.map(\.path) == ["good.jpg", "lying.jpg"])
        #expect(listing.skipped.count == BrokenProject.bad.count)
        for (name, _) in BrokenProject.bad {
            #expect(listing.skipped.contains { $0.contains(name) }, "\(name) is listed as skipped")
        }
    }

    @Test func anExistingDestinationIsNeverOverwrittenUnlessAsked() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("sample.zip")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try fixture.run("export", [sampleProject.path, "--output", output])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        #expect(try fixture.run("export", [sampleProject.path, "--output", output, "--overwrite"]).status == 0)
        #expect(try ZipReader.entries(of: output).count == 7)
    }

    @Test func aBrokenManifestExits65NamingTheField() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(#"{"version": 1, "name": "x", "assets": [{"path": "../../etc/passwd"}]}"#.utf8)
            .write(to: project.appendingPathComponent("project.json"))
        let result = try fixture.run("export", [project.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("assets[0].path"))
        #expect(result.stderr.contains("climbs out"))
    }
}

@Suite struct PixelLimitTests {
    @Test func maxPixelsRefusesLargerPhotosByName() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("landscape-3000x2000.jpg").path
        let small = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("thumbnail", [photo, small, "--output", fixture.folder.path("t"), "--max-pixels", "1000000"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("landscape-3000x2000.jpg"))
        #expect(!result.stderr.contains("small-640x480.jpg"))
    }
}
