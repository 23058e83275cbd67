import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// Thumbnails of tiled, pyramidal TIFFs come from a level that fits the asked size.
@Suite struct PyramidThumbnailTests {
    let folder = TemporaryDirectory()

    init() throws {
        try Vips.initialize()
    }

    @Test(arguments: ["--pyramid", "--subifd"], [64, 256, 600])
    func aPyramidalTIFFThumbnailHasTheAskedSizeFromTheLevelThatFits(layout: String, size: Int) throws {
        let plain = folder.path("plain.png")
        try PhotoFixtures.picture(plain, width: 1500, height: 1000)
        let tiff = folder.path("pyramid.tif")
        let levels = layout == "--subifd" ? ["--pyramid", "--subifd"] : ["--pyramid"]
        try PhotoFixtures.vips(["tiffsave", plain, tiff, "--tile"] + levels)
        // The vips command picks the level that fits (libvips' "down only" setting, used before,
        // picked a level too small: 93×62 whatever the size).
        let reference = folder.path("reference-\(size).png")
        try PhotoFixtures.vips(["thumbnail", tiff, reference, String(size)])

        let thumbnail = try VipsImage.thumbnail(tiff, size: size)
        #expect(thumbnail.width == size && thumbnail.height == (size * 2 + 1) / 3, "\(layout) \(size): \(thumbnail.width)×\(thumbnail.height)")
        let output = folder.path("thumbnail-\(size).png")
        try thumbnail.save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, reference) <= 1)
    }
}
