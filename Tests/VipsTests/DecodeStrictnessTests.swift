import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// Benign JPEG warnings are accepted as libvips' command line accepts them; damage is refused.
@Suite struct DecodeStrictnessTests {
    let folder = TemporaryDirectory()

    init() throws {
        try VipsTestSupport.start()
    }

    /// A JPEG of the test picture with three stray bytes before its quantisation tables.
    private func jpegWithStrayBytes() throws -> (good: String, stray: String) {
        let good = folder.path("good.jpg")
        try PhotoFixtures.picture("\(good)[Q=90]", width: 160, height: 120)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let tables = (2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB }!
        bytes.insert(contentsOf: [0x00, 0x11, 0x22], at: tables)
        let stray = folder.path("stray.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: stray))
        return (good, stray)
    }

    @Test func aJPEGWithStrayBytesBeforeAMarkerDecodesAsTheVipsCommandDoesIt() throws {
        let (_, stray) = try jpegWithStrayBytes()
        let reference = folder.path("reference.png")
        try PhotoFixtures.vips(["copy", stray, reference])  // the command line reads it, with a warning
        let output = folder.path("loaded.png")
        try VipsImage.load(stray).save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, reference) == 0)
        let thumbnail = try VipsImage.thumbnail(stray, size: 40)
        #expect(thumbnail.width == 40 && thumbnail.height == 30)
    }

    @Test func aTruncatedJPEGIsRefusedNamingTheFile() throws {
        let (good, _) = try jpegWithStrayBytes()
        let data = try Data(contentsOf: URL(fileURLWithPath: good))
        let truncated = folder.path("truncated.jpg")
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        let loaded = vipsError { _ = try VipsImage.load(truncated).pixels() }
        #expect(loaded?.kind == .corrupt && loaded?.path == truncated)
        #expect(loaded?.message.contains("truncated.jpg") == true && loaded?.message.contains("damaged or incomplete") == true)
        #expect(vipsError { _ = try VipsImage.thumbnail(truncated, size: 40) }?.kind == .corrupt)
    }

    @Test func strayBytesDoNotExcuseDamageElsewhere() throws {
        let (_, stray) = try jpegWithStrayBytes()
        let data = try Data(contentsOf: URL(fileURLWithPath: stray))
        let both = folder.path("stray-and-truncated.jpg")
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: both))
        #expect(vipsError { _ = try VipsImage.load(both).pixels() }?.kind == .corrupt)
    }
}
