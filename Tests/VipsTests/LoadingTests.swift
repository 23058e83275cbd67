import EngineTestKit
import Foundation
import Testing
@testable import Vips

@Suite struct LoadingTests {
    let folder = TemporaryDirectory()

    init() throws {
        try VipsTestSupport.start()
    }

    @Test(arguments: ImageFormat.allCases)
    func eachAvailableFormatSurvivesASaveAndALoad(format: ImageFormat) throws {
        guard format.isAvailable else { return }
        let original = try TestImages.photo(width: 64, height: 48)
        let path = folder.path("round-trip.\(format.fileExtension)")
        try original.save(to: path, format: format, quality: 90)

        let loaded = try VipsImage.load(path)
        #expect(loaded.width == 64)
        #expect(loaded.height == 48)
        let expectedLoader = ["jpeg": "jpegload", "webp": "webpload", "avif": "heifload", "png": "pngload"]
        #expect(loaded.loaderName == expectedLoader[format.rawValue])
        let similarity = try psnr(original, loaded.toSRGB8())
        if format == .png {
            #expect(similarity == .infinity)
        } else {
            #expect(similarity > 28)
        }
    }

    @Test func pngAndWebPKeepAlpha() throws {
        let original = try TestImages.gradient(width: 20, height: 10, bands: 4, alpha: 100)
        for format in [ImageFormat.png, .webp] {
            let path = folder.path("alpha.\(format.fileExtension)")
            try original.save(to: path, format: format, quality: 100)
            let loaded = try VipsImage.load(path)
            #expect(loaded.hasAlpha)
            #expect(try loaded.pixel(x: 5, y: 5)[3] == 100)
        }
    }

    @Test func aHeaderDeclaringTooManyPixelsIsRefusedBeforeDecoding() throws {
        let path = folder.path("huge.png")
        try TestImages.pngHeaderOnly(width: 20_000, height: 20_000).write(to: URL(fileURLWithPath: path))

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .tooManyPixels(width: 20_000, height: 20_000, limit: ImageLimits().maxPixels))
        #expect(error.category == .invalidInput)
        #expect(error.message.contains(path))
        let thumbnailError = try #require(vipsError { _ = try VipsImage.thumbnail(path, size: 100) })
        #expect(thumbnailError.kind == .tooManyPixels(width: 20_000, height: 20_000, limit: ImageLimits().maxPixels))
    }

    @Test func aLowerPixelLimitRefusesAnOrdinaryImage() throws {
        let path = folder.path("small.png")
        try TestImages.gradient(width: 30, height: 20).save(to: path, format: .png)

        let error = try #require(vipsError { _ = try VipsImage.load(path, limits: ImageLimits(maxPixels: 599)) })
        #expect(error.kind == .tooManyPixels(width: 30, height: 20, limit: 599))
        #expect(try VipsImage.load(path, limits: ImageLimits(maxPixels: 600)).width == 30)
    }

    @Test func aTruncatedJPEGFailsAsCorruptInsteadOfDecodingGarbage() throws {
        let whole = try TestImages.photo(width: 256, height: 256).encoded(format: .jpeg, quality: 90)
        let path = folder.path("half.jpg")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))

        let error = try #require(vipsError {
            try VipsImage.load(path).save(to: folder.path("out.png"), format: .png)
        })
        #expect(error.kind == .corrupt)
        #expect(error.path == path)
        #expect(error.category == .invalidInput)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
        let thumbnailError = try #require(vipsError { _ = try VipsImage.thumbnail(path, size: 64) })
        #expect(thumbnailError.kind == .corrupt)
    }

    @Test func anEmptyFileFailsClearly() throws {
        let path = folder.path("empty.jpg")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .corrupt)
        #expect(error.message.contains(path))
        #expect(error.message.contains("empty"))
    }

    @Test func aMissingFileFailsClearly() throws {
        let path = folder.path("nowhere.jpg")

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .unreadable)
        #expect(error.category == .invalidInput)
        #expect(error.message.contains(path))
        #expect(error.message.contains("No such file"))
    }

    @Test func aFileOfNoImageFormatIsReportedAsUnknown() throws {
        let path = folder.path("notes.png")
        try Data("just some words, not an image\n".utf8).write(to: URL(fileURLWithPath: path))

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .unknownFormat)
        #expect(error.message.contains(path))
    }

    @Test func anSVGFileIsRefusedAsABlockedFormat() throws {
        let path = folder.path("drawing.svg")
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .blockedLoader(format: "SVG"))
        #expect(error.message.contains(path))
        #expect(error.message.contains("not accepted"))
        #expect(vipsError { _ = try VipsImage.thumbnail(path, size: 10) }?.kind == .blockedLoader(format: "SVG"))
    }

    @Test func aPDFFileIsRefusedAsABlockedFormat() throws {
        let path = folder.path("document.pdf")
        let pdf = """
            %PDF-1.4
            1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
            2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
            3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >> endobj
            trailer << /Root 1 0 R >>
            %%EOF

            """
        try Data(pdf.utf8).write(to: URL(fileURLWithPath: path))

        let error = try #require(vipsError { _ = try VipsImage.load(path) })
        #expect(error.kind == .blockedLoader(format: "PDF"))
        #expect(error.message.contains(path))
    }

    @Test func aPNGNamedJPGIsJudgedByItsContent() throws {
        let path = folder.path("really-a-png.jpg")
        try Data(TestImages.gradient(width: 9, height: 7).encoded(format: .png)).write(to: URL(fileURLWithPath: path))

        let image = try VipsImage.load(path)
        #expect(image.loaderName == "pngload")
        #expect(image.width == 9)
    }

    @Test(arguments: [ImageAccess.random, .sequential])
    func exifOrientationSixTurnsTheImageUpright(access: ImageAccess) throws {
        // A 40×20 image, red on its left half, stored with "rotate 90° clockwise to display".
        let stored = try TestImages.pixels((0..<20).map { _ in
            (0..<40).map { x in x < 20 ? [255, 0, 0] : [0, 0, 255] }
        })
        let path = folder.path("orientation-6.jpg")
        try TestImages.writeJPEG(stored, orientation: 6, to: path)

        let upright = try VipsImage.load(path, access: access)
        #expect(upright.width == 20)
        #expect(upright.height == 40)
        let top = try upright.pixel(x: 10, y: 5)  // the stored left half is now on top
        #expect(top[0] > 200 && top[2] < 60)
        let thumbnail = try VipsImage.thumbnail(path, size: 10)
        #expect(thumbnail.width == 5)
        #expect(thumbnail.height == 10)
    }

    @Test func aThumbnailFitsItsLongestSideAndNeverGrows() throws {
        let path = folder.path("landscape.jpg")
        try TestImages.photo(width: 400, height: 300).save(to: path, format: .jpeg)

        let small = try VipsImage.thumbnail(path, size: 100)
        #expect(small.width == 100)
        #expect(small.height == 75)
        let notEnlarged = try VipsImage.thumbnail(path, size: 1000)
        #expect(notEnlarged.width == 400)
        #expect(notEnlarged.height == 300)
        #expect(try small.encoded(format: .png) == small.encoded(format: .png))
    }

    @Test func loadingAFileReplacedAtTheSamePathReadsTheNewPixels() throws {
        let path = folder.path("replaced.png")
        try TestImages.pixels([[[10, 20, 30]]]).save(to: path, format: .png)
        #expect(try VipsImage.load(path).pixel(x: 0, y: 0) == [10, 20, 30])

        try TestImages.pixels([[[200, 100, 50]]]).save(to: path, format: .png)
        #expect(try VipsImage.load(path).pixel(x: 0, y: 0) == [200, 100, 50])
    }

    @Test func fromPixelsRefusesABufferOfTheWrongSize() throws {
        let error = try #require(vipsError {
            _ = try VipsImage.fromPixels(Data(count: 10), width: 2, height: 2, bands: 3)
        })
        #expect(error.kind == .invalidArgument)
    }
}
