import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// What saved and copied photos keep of their metadata, read back with `exiftool`.
@Suite struct MetadataPolicyTests {
    let folder = TemporaryDirectory()

    init() throws {
        try Vips.initialize()
    }

    /// A JPEG turned a quarter by its EXIF orientation and carrying kept and private tags;
    /// `bigEndian` makes exiftool write a fresh big-endian EXIF block, else it edits libvips'
    /// little-endian one.
    private func taggedJPEG(_ name: String, bigEndian: Bool) throws -> String {
        let path = folder.path(name)
        try PhotoFixtures.picture("\(path)[Q=95\(bigEndian ? ",strip" : "")]", width: 64, height: 48)
        try PhotoFixtures.writeTags(PhotoFixtures.keptTags + PhotoFixtures.privateTags + ["Orientation#=6"], to: path)
        return path
    }

    private func expectSafe(_ tags: [String: Any], orientation: String?, _ what: String) {
        #expect(tags["Copyright"] as? String == "Someone 2026", "\(what)")
        #expect(tags["Artist"] as? String == "Ann Example", "\(what)")
        #expect(tags["ImageDescription"] as? String == "A test picture", "\(what)")
        #expect(tags["DateTimeOriginal"] as? String == "2026:01:02 03:04:05", "\(what)")
        for name in PhotoFixtures.privateNames { #expect(tags[name] == nil, "\(what): \(name) is still there") }
        #expect((tags["Orientation"] as? String ?? "Horizontal (normal)") == (orientation ?? "Horizontal (normal)"),
                "\(what): orientation \(tags["Orientation"] ?? "none")")
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .avif])
    func aSavedPhotoKeepsOnlyTheSafeTagsAndIsTurnedOnce(format: ImageFormat) throws {
        guard format.isAvailable else { return }
        let source = try taggedJPEG("source.jpg", bigEndian: false)
        let tags = try PhotoFixtures.exif(source)
        #expect(PhotoFixtures.privateNames.allSatisfy { tags[$0] != nil }, "the fixture has every private tag")
        let output = folder.path("out.\(format.fileExtension)")
        let image = try VipsImage.load(source)
        try image.save(to: output, format: format)
        expectSafe(try PhotoFixtures.exif(output), orientation: nil, "\(format)")
        let saved = try VipsImage.load(output)
        #expect(saved.width == 48 && saved.height == 64, "\(format): upright, turned exactly once")
    }

    @Test func keepingAllMetadataKeepsLocationAndXMP() throws {
        let source = try taggedJPEG("source.jpg", bigEndian: false)
        let output = folder.path("all.jpg")
        try VipsImage.load(source).save(to: output, format: .jpeg, metadata: .all)
        let tags = try PhotoFixtures.exif(output)
        #expect(tags["GPSLatitude"] != nil && tags["Creator"] as? String == "Ann Private" && tags["Copyright"] != nil)
        #expect(try VipsImage.load(output).width == 48, "turned exactly once")
    }

    @Test(arguments: [false, true])
    func aCopiedJPEGLosesThePrivateTagsAndKeepsItsPixelsExactly(bigEndian: Bool) throws {
        let source = try taggedJPEG("source.jpg", bigEndian: bigEndian)
        let output = folder.path("copy.jpg")
        let rewritten = try JPEGSafeCopy.rewritten(Data(contentsOf: URL(fileURLWithPath: source)), path: source)
        try rewritten.write(to: URL(fileURLWithPath: output))
        let tags = try PhotoFixtures.exif(output)
        expectSafe(tags, orientation: "Rotate 90 CW", bigEndian ? "big-endian" : "little-endian")
        #expect(tags["ExifByteOrder"] as? String == (bigEndian ? "Big-endian (Motorola, MM)" : "Little-endian (Intel, II)"))
        #expect(try PhotoFixtures.meanDifference(output, source) == 0, "the same compressed pixels")
        #expect(rewritten.count < (try Data(contentsOf: URL(fileURLWithPath: source))).count)
    }

    @Test(arguments: ["png", "webp"])
    func aCopiedPNGOrWebPLosesThePrivateTagsAndKeepsItsPixelsExactly(format: String) throws {
        let source = folder.path("source.\(format)")
        try PhotoFixtures.picture(source, width: 64, height: 48)
        try PhotoFixtures.writeTags(PhotoFixtures.keptTags + PhotoFixtures.privateTags, to: source)
        let before = try PhotoFixtures.exif(source)
        #expect(PhotoFixtures.privateNames.allSatisfy { before[$0] != nil }, "the fixture has every private tag")
        let output = folder.path("copy.\(format)")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let rewritten = format == "png" ? try PNGSafeCopy.rewritten(data, path: source) : try WebPSafeCopy.rewritten(data, path: source)
        try rewritten.write(to: URL(fileURLWithPath: output))
        expectSafe(try PhotoFixtures.exif(output), orientation: nil, format)
        #expect(try PhotoFixtures.meanDifference(output, source) == 0, "the same image data")
        // Read strictly: every chunk's size, checksum and flags hold.
        _ = try PhotoFixtures.vips(["copy", "\(output)[fail_on=warning]", folder.path("check.v")])
    }

    @Test func aDamagedJPEGIsRefusedNamingTheFile() throws {
        let source = try taggedJPEG("source.jpg", bigEndian: false)
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let error = try #require(throws: VipsError.self) { _ = try JPEGSafeCopy.rewritten(data.prefix(40), path: source) }
        #expect(error.kind == .corrupt && error.path == source)
        let notJPEG = try #require(throws: VipsError.self) { _ = try JPEGSafeCopy.rewritten(Data("not a jpeg".utf8), path: source) }
        #expect(notJPEG.kind == .corrupt)
    }
}
