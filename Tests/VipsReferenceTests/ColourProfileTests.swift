import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

/// Photos in wide-gamut and CMYK colour spaces, converted to sRGB and checked against
/// `vips icc_transform` run as a separate program.
@Suite struct ColourProfileTests {
    let folder = TemporaryDirectory()

    init() throws {
        try Vips.initialize()
    }

    /// Input formats a tagged photo is made in, with the saver options `vips` takes; HEIF
    /// (AVIF, HEIC) only where libheif here can write it, which the AVIF output format tells.
    static let inputs: [(needs: ImageFormat, suffix: String)] =
        [(.jpeg, "jpg[Q=95]"), (.png, "png"), (.webp, "webp[Q=95]"), (.avif, "avif[Q=95]"), (.avif, "heic[Q=95]")]

    @Test(arguments: PhotoFixtures.WideGamut.allCases, 0..<5)
    func aWideGamutPhotoIsConvertedToSRGBAsLcmsDoesIt(space: PhotoFixtures.WideGamut, input: Int) throws {
        let (needs, suffix) = Self.inputs[input]
        guard needs.isAvailable else { return }
        let source = folder.path("\(space)-in.\(suffix)")
        let format = String(suffix.prefix { $0 != "[" })
        do {
            try PhotoFixtures.widePicture(source, in: space)
        } catch where format == "heic" {
            return  // libheif without an HEVC encoder
        }
        let file = String(source.prefix { $0 != "[" })
        let reference = folder.path("\(space)-\(format)-reference.png")
        try PhotoFixtures.srgbReference(of: file, to: reference)

        let output = folder.path("\(space)-\(format)-out.png")
        try VipsImage.load(file).colourManaged(.srgb).save(to: output, format: .png)
        let error = try PhotoFixtures.meanDifference(output, reference)
        #expect(error <= 1, "\(space) \(format): \(error) levels from lcms' sRGB")
        // The numbers as they were (what the program wrote before) are far from sRGB.
        let unconverted = try PhotoFixtures.meanDifference(file, reference)
        #expect(unconverted > 4 * max(error, 0.5), "\(space) \(format): untouched numbers are \(unconverted) levels off")
        #expect(try PhotoFixtures.exif(output)["ProfileDescription"] as? String == "sRGB")
    }

    @Test func keepingTheProfileKeepsTheNumbersAndEmbedsTheSourceProfile() throws {
        let source = folder.path("adobe.png")
        try PhotoFixtures.widePicture(source, in: .adobeRGB)
        let output = folder.path("kept.png")
        try VipsImage.load(source).colourManaged(.keep).save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, source) == 0)
        let description = try PhotoFixtures.exif(source)["ProfileDescription"] as? String
        #expect(description != nil && description != "sRGB")
        #expect(try PhotoFixtures.exif(output)["ProfileDescription"] as? String == description)
    }

    @Test func anUntaggedPhotoIsSavedWithAnSRGBProfileAndTheSameNumbers() throws {
        let source = folder.path("plain.png")
        try PhotoFixtures.picture(source)
        let output = folder.path("tagged.png")
        try VipsImage.load(source).colourManaged(.srgb).save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, source) == 0)
        #expect(try PhotoFixtures.exif(output)["ProfileDescription"] as? String == "sRGB")
    }

    @Test(arguments: [true, false])
    func aCMYKJPEGBecomesSRGBThroughItsProfileOrTheStandardOne(embedded: Bool) throws {
        let plain = folder.path("plain.png")
        try PhotoFixtures.picture(plain)
        let tagged = folder.path("cmyk-tagged.jpg")
        try PhotoFixtures.vips(["icc_transform", plain, "\(tagged)[Q=95]", "cmyk"])
        let source = embedded ? tagged : folder.path("cmyk-untagged.jpg")
        if !embedded { try PhotoFixtures.vips(["copy", tagged, "\(source)[Q=95,strip]"]) }
        let reference = folder.path("cmyk-reference.png")
        try PhotoFixtures.vips(["icc_transform", source, reference, "srgb", "--input-profile", "cmyk"])

        let image = try VipsImage.load(source)
        #expect(image.isCMYK && image.bands == 4)
        let output = folder.path("cmyk-out.jpg")
        try image.colourManaged(.srgb).save(to: output, format: .jpeg, quality: 95)
        let saved = try VipsImage.load(output)
        #expect(saved.bands == 3 && !saved.isCMYK)
        #expect(try PhotoFixtures.meanDifference(output, reference) <= 2)

        let thumbnail = folder.path("cmyk-thumbnail.png")
        try VipsImage.thumbnail(source, size: 80).save(to: thumbnail, format: .png)
        let referenceThumbnail = folder.path("cmyk-reference-thumbnail.png")
        try PhotoFixtures.vips(["thumbnail", reference, referenceThumbnail, "80"])
        // libvips shrinks before it converts, so a few levels come from resampling in CMYK; CMYK
        // numbers read as RGB would be far off (and four bands).
        let error = try PhotoFixtures.meanDifference(thumbnail, referenceThumbnail)
        #expect(error <= 4, "the thumbnail is sRGB too: \(error) levels")
    }

    @Test func aThumbnailIsConvertedToSRGB() throws {
        let source = folder.path("p3.jpg")
        try PhotoFixtures.widePicture("\(source)[Q=95]", in: .displayP3)
        let converted = folder.path("p3-srgb.png")
        try PhotoFixtures.srgbReference(of: source, to: converted)
        let reference = folder.path("reference-thumbnail.png")
        try PhotoFixtures.vips(["thumbnail", converted, reference, "80"])
        let output = folder.path("thumbnail.png")
        try VipsImage.thumbnail(source, size: 80).save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, reference) <= 2)
        #expect(try PhotoFixtures.exif(output)["ProfileDescription"] as? String == "sRGB")
    }

    @Test func aContactSheetConvertsEachPhotoToSRGB() throws {
        let source = folder.path("p3.png")
        try PhotoFixtures.widePicture(source, in: .displayP3, width: 40, height: 40)
        let reference = folder.path("p3-srgb.png")
        try PhotoFixtures.srgbReference(of: source, to: reference)
        let sheet = try VipsImage.grid([VipsImage.load(source)], columns: 1, cell: 40, spacing: 0, background: [0])
        let output = folder.path("sheet.png")
        try sheet.save(to: output, format: .png)
        #expect(try PhotoFixtures.meanDifference(output, reference) <= 1)
    }
}
