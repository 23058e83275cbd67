import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// The committed sample photos (Scripts/make-sample-media) through the bridge.
@Suite struct SampleMediaTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Media/sample")

    init() throws {
        try VipsTestSupport.start()
    }

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    @Test(arguments: [("landscape-3000x2000.jpg", 3000, 2000), ("portrait-1200x1800.jpg", 1200, 1800),
                      ("small-640x480.jpg", 640, 480), ("rotated-exif6-1600x1200.jpg", 1600, 1200),
                      ("overlay-alpha-480x480.png", 480, 480)])
    func eachSamplePhotoLoadsUprightAtItsNamedSize(sample: (String, Int, Int)) throws {
        let image = try VipsImage.load(Self.path(sample.0), access: .sequential)
        #expect(image.width == sample.1)
        #expect(image.height == sample.2)
    }

    @Test func theAlphaSampleHasAlpha() throws {
        #expect(try VipsImage.load(Self.path("overlay-alpha-480x480.png")).hasAlpha)
    }

    /// The reference is a full decode resized by the `vips` command line (Lanczos-3, 1/6).
    @Test func aThumbnailLooksLikeAFullDecodeResizedByTheVipsCommandLine() throws {
        let folder = TemporaryDirectory()
        let path = Self.path("portrait-1200x1800.jpg")
        let thumbnail = try VipsImage.thumbnail(path, size: 300)
        #expect(thumbnail.width == 200 && thumbnail.height == 300)
        try thumbnail.save(to: folder.path("thumbnail.png"), format: .png)
        try PhotoFixtures.vips(["resize", path, folder.path("reference.png"), String(1.0 / 6), "--kernel", "lanczos3"])
        let difference = try PhotoFixtures.meanDifference(folder.path("thumbnail.png"), folder.path("reference.png"))
        #expect(difference <= 2, "\(difference) levels from the full decode resized")
    }

    @Test func aContactSheetOfTheSamplesHasOneCellPerPhoto() throws {
        let names = ["landscape-3000x2000.jpg", "portrait-1200x1800.jpg", "small-640x480.jpg",
                     "rotated-exif6-1600x1200.jpg", "overlay-alpha-480x480.png"]
        let thumbnails = try names.map { try VipsImage.thumbnail(Self.path($0), size: 128) }
        let sheet = try VipsImage.grid(thumbnails, columns: 3, cell: 128, spacing: 8, background: [255])
        #expect(sheet.width == 3 * 128 + 2 * 8)
        #expect(sheet.height == 2 * 128 + 8)
        #expect(try sheet.encoded(format: .jpeg).count > 1000)
    }
}
