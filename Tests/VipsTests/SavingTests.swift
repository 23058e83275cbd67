import EngineTestKit
import Foundation
import MediaTestKit
import Testing
@testable import Vips

@Suite struct SavingTests {
    let folder = TemporaryDirectory()

    init() throws {
        try VipsTestSupport.start()
    }

    /// The names in the test folder.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test func twoEncodingsOfTheSameImageGiveIdenticalJPEGBytes() throws {
        let image = try TestImages.photo(width: 120, height: 80)
        let first = try image.encoded(format: .jpeg, quality: 80)
        let second = try image.encoded(format: .jpeg, quality: 80)
        #expect(first == second)
        #expect(first.starts(with: [0xFF, 0xD8]))

        try image.save(to: folder.path("a.jpg"), format: .jpeg, quality: 80)
        try image.save(to: folder.path("b.jpg"), format: .jpeg, quality: 80)
        let a = try Data(contentsOf: folder.url.appendingPathComponent("a.jpg"))
        #expect(a == (try Data(contentsOf: folder.url.appendingPathComponent("b.jpg"))))
        #expect(a == first)
    }

    @Test func savingAnUprightedPhotoLeavesNoTurnForViewersToApplyAgain() throws {
        let source = folder.path("with-exif.jpg")
        try TestImages.writeJPEG(TestImages.photo(width: 16, height: 8), orientation: 6, to: source)
        #expect(try PhotoFixtures.exif(source)["Orientation"] as? String == "Rotate 90 CW")
        let output = folder.path("saved.jpg")
        let loaded = try VipsImage.load(source)
        #expect(loaded.width == 8 && loaded.height == 16, "turned once on loading")
        try loaded.save(to: output, format: .jpeg)
        let orientation = try PhotoFixtures.exif(output)["Orientation"] as? String
        #expect(orientation == nil || orientation == "Horizontal (normal)", "\(orientation ?? "")")
    }

    @Test func qualityChangesTheSizeOfLossyFormats() throws {
        let image = try TestImages.photo(width: 128, height: 128)
        for format in [ImageFormat.jpeg, .webp] {
            #expect(try image.encoded(format: format, quality: 30).count < image.encoded(format: format, quality: 95).count)
        }
    }

    @Test func aSaveAskedToStopIsStoppedAndLeavesNoFile() throws {
        let image = try TestImages.photo(width: 512, height: 512)
        for format in ImageFormat.available {
            let path = folder.path("stopped.\(format.fileExtension)")
            let error = try #require(vipsError { try image.save(to: path, format: format, shouldStop: { true }) })
            #expect(error.kind == .stopped)
            #expect(error.isStop)
        }
        #expect(try leftovers().isEmpty)
    }

    @Test func aStopOnALoadedImageStopsTheDecodeToo() throws {
        let source = folder.path("source.jpg")
        try TestImages.photo(width: 400, height: 300).save(to: source, format: .jpeg)
        let error = try #require(vipsError {
            try VipsImage.load(source).save(to: folder.path("out.png"), format: .png, shouldStop: { true })
        })
        #expect(error.kind == .stopped)
        #expect(try leftovers() == ["source.jpg"])
    }

    @Test func aSaveThatIsNeverAskedToStopCompletes() throws {
        let path = folder.path("complete.png")
        try TestImages.photo(width: 64, height: 64).save(to: path, format: .png, shouldStop: { false })
        #expect(try leftovers() == ["complete.png"])
        #expect(try VipsImage.load(path).width == 64)
    }

    @Test func aFailedSaveKeepsTheFileThatWasThere() throws {
        let path = folder.path("keep.png")
        try TestImages.pixels([[[1, 2, 3]]]).save(to: path, format: .png)
        let error = vipsError {
            try TestImages.photo(width: 64, height: 64).save(to: path, format: .png, shouldStop: { true })
        }
        #expect(error?.kind == .stopped)
        #expect(try VipsImage.load(path).pixel(x: 0, y: 0) == [1, 2, 3])
    }

    @Test func savingIntoAMissingFolderFailsAsAWriteError() throws {
        let path = folder.path("no-such-folder/out.png")
        let error = try #require(vipsError { try TestImages.pixels([[[1, 2, 3]]]).save(to: path, format: .png) })
        #expect(error.kind == .writeFailed(noSpace: false))
        #expect(error.category == .io)
        #expect(error.message.contains(path))
    }

    @Test func aFullDiskIsReportedAsNoSpace() {
        let error = VipsError.evaluation(
            libraryMessage: "/out/x.jpg: write error\nunix error: No space left on device\nwbuffer_write: write failed",
            stopRequested: false, source: "/in/x.jpg", destination: "/out/x.jpg")
        #expect(error.kind == .writeFailed(noSpace: true))
        #expect(error.category == .noSpace)
        #expect(error.path == "/out/x.jpg")
    }

    @Test func aDecodeFailureDuringASaveNamesTheSource() {
        let error = VipsError.evaluation(
            libraryMessage: "VipsJpeg: Premature end of input file\nvips2png: unable to write to target /out/x.png",
            stopRequested: false, source: "/in/x.jpg", destination: "/out/x.png")
        #expect(error.kind == .corrupt)
        #expect(error.path == "/in/x.jpg")
        #expect(error.reason == "Premature end of input file")
    }

    @Test func aJPEGOfAnImageWithAlphaIsFlattenedOntoWhite() throws {
        let transparent = try TestImages.pixels(Array(repeating: Array(repeating: [0, 0, 0, 0], count: 16), count: 16))
        let path = folder.path("flattened.jpg")
        try transparent.save(to: path, format: .jpeg, quality: 95)
        let loaded = try VipsImage.load(path)
        #expect(loaded.bands == 3)
        #expect(try loaded.pixel(x: 8, y: 8).allSatisfy { $0 >= 250 })
    }

    @Test func pixelsComeBackAsWritten() throws {
        let bytes = Data((0..<24).map { UInt8($0 * 10) })
        let image = try VipsImage.fromPixels(bytes, width: 4, height: 2, bands: 3)
        let pixels = try image.pixels()
        #expect(pixels.data == bytes)
        #expect(pixels.width == 4 && pixels.height == 2 && pixels.bands == 3)
    }

    @Test func oneImageCanBeEncodedFromManyTasksAtOnce() async throws {
        let image = try TestImages.photo(width: 200, height: 150)
        let reference = try image.encoded(format: .jpeg)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 {
                group.addTask { try image.resize(maxWidth: 200, maxHeight: 200).encoded(format: .jpeg) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == reference })
    }

    @Test func psnrIsInfiniteForIdenticalImagesAndFiniteOtherwise() throws {
        let image = try TestImages.photo(width: 32, height: 32)
        let copy = try VipsImage.fromPixels(image.pixels().data, width: 32, height: 32, bands: 3)
        #expect(try psnr(image, copy) == .infinity)
        let brighter = try image.adjusted(exposure: 0.1)
        let value = try psnr(image, brighter)
        #expect(value.isFinite)
        #expect(value > 10 && value < 60)
        #expect(vipsError { _ = try psnr(image, image.crop(x: 0, y: 0, width: 16, height: 16)) }?.kind == .invalidArgument)
    }

    @Test func aContactSheetCentresEachImageInItsCell() throws {
        let red = try TestImages.pixels(Array(repeating: Array(repeating: [255, 0, 0], count: 20), count: 10))
        let green = try TestImages.pixels(Array(repeating: Array(repeating: [0, 255, 0, 255], count: 80), count: 40))
        let blue = try VipsImage.fromPixels(Data(repeating: 60, count: 30 * 30), width: 30, height: 30, bands: 1)
        let sheet = try VipsImage.grid([red, green, blue], columns: 2, cell: 40, spacing: 4, background: [20, 20, 20])

        #expect(sheet.width == 40 + 4 + 40)
        #expect(sheet.height == 40 + 4 + 40)
        #expect(sheet.bands == 3)
        #expect(try sheet.pixel(x: 20, y: 20) == [255, 0, 0])  // centre of the first cell
        #expect(try sheet.pixel(x: 20, y: 5) == [20, 20, 20])  // above the short red image
        #expect(try sheet.pixel(x: 64, y: 20) == [0, 255, 0])  // the wide green image, scaled to fit
        #expect(try sheet.pixel(x: 20, y: 64) == [60, 60, 60])  // grey, as sRGB
        #expect(try sheet.pixel(x: 64, y: 64) == [20, 20, 20])  // the empty last cell
    }

    @Test func aContactSheetOfCellsMadeBeforehandHasTheBytesOfOneMadeFromItsImages() throws {
        let images = [try TestImages.gradient(width: 60, height: 30, bands: 4, alpha: 128),
                      try TestImages.gradient(width: 20, height: 50),
                      try VipsImage.fromPixels(Data(repeating: 60, count: 30 * 30), width: 30, height: 30, bands: 1)]
        let direct = try VipsImage.grid(images, columns: 2, cell: 40, spacing: 4, background: [20, 30, 40])
        let cells = try VipsImage.sheetCells(images, size: 40, background: [20, 30, 40])
        let joined = try VipsImage.grid(cells: cells, columns: 2, cell: 40, spacing: 4, background: [20, 30, 40])

        #expect(cells.map(\.width) == [40, 16, 30] && cells.map(\.height) == [20, 40, 30]) // scaled to fit, centred when joined
        #expect(try joined.encoded(format: .jpeg, quality: 85) == direct.encoded(format: .jpeg, quality: 85))
    }

    @Test func aContactSheetOfNothingIsRefused() {
        #expect(vipsError {
            _ = try VipsImage.grid([], columns: 2, cell: 40, spacing: 0, background: [0])
        }?.kind == .invalidArgument)
    }
}
