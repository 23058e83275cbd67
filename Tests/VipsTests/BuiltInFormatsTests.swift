import EngineTestKit
import Foundation
import Glibc
import Testing
@testable import Vips

/// Which files and formats libvips reads and writes without its plugin modules.
@Suite struct BuiltInFormatsTests {
    let folder = TemporaryDirectory()

    init() throws {
        try VipsTestSupport.start()
    }

    /// The smallest GIF: one transparent pixel.
    private let onePixelGIF: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
                                        0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
                                        0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Saved by libvips and named `.bin`: known by content, and loaded by the loader of libvips
    /// itself that the signature names. AVIF (HEIF) is a module's format.
    @Test(arguments: ImageFormat.allCases)
    func aFileLibvipsSavedIsBuiltInExactlyWhenItsFormatIsWritableWithoutModules(format: ImageFormat) throws {
        guard format.isAvailable else { return }
        let path = folder.path("\(format.rawValue).bin")
        try TestImages.photo(width: 32, height: 24).save(to: path, format: format, quality: 80)
        #expect(BuiltInFormats.fileIsBuiltIn(at: path) == BuiltInFormats.writable.contains(format))
        let builtInLoaders: [ImageFormat: String] = [.jpeg: "jpegload", .png: "pngload", .webp: "webpload"]
        if let loader = builtInLoaders[format] {
            #expect(try VipsImage.load(path).loaderName == loader)
        }
    }

    @Test func aGIFIsBuiltInAndLoadsWithLibvipsOwnLoader() throws {
        let path = try write(onePixelGIF, "pixel.gif")
        #expect(BuiltInFormats.fileIsBuiltIn(at: path))
        #expect(try VipsImage.load(path).loaderName == "gifload")
    }

    /// TIFF: OpenSlide, a module, takes a slide scanner's TIFF before libvips' own loader does.
    @Test func tiffHEIFAndOtherStartsAreNot() throws {
        let starts: [[UInt8]] = [
            Array("II*\u{0}".utf8) + [8, 0, 0, 0], Array("MM\u{0}*".utf8) + [0, 0, 0, 8],
            [0, 0, 0, 0x18] + Array("ftypheic".utf8), Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8),
            Array("%PDF-1.7".utf8), [0xFF], [0x89, 0x50, 0x4E, 0x47],
        ]
        for start in starts {
            #expect(!BuiltInFormats.isBuiltIn(start: start), "\(start)")
            #expect(!BuiltInFormats.fileIsBuiltIn(at: try write(start, "start.bin")), "\(start)")
        }
    }

    @Test func aFileThatCannotBeReadAsARegularFileIsNot() throws {
        let fifo = folder.path("pipe.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(!BuiltInFormats.fileIsBuiltIn(at: fifo), "answered without waiting for a writer")
        #expect(!BuiltInFormats.fileIsBuiltIn(at: folder.path("missing.jpg")))
        #expect(!BuiltInFormats.fileIsBuiltIn(at: folder.url.path))
        #expect(!BuiltInFormats.fileIsBuiltIn(at: try write([], "empty.jpg")))
    }

    @Test func aRunNeedsTheModulesUnlessEveryInputAndOutputIsBuiltIn() throws {
        let gif = try write(onePixelGIF, "pixel.gif"), jpeg = folder.path("photo.jpg")
        try TestImages.photo(width: 32, height: 24).save(to: jpeg, format: .jpeg, quality: 80)
        let tiff = try write(Array("II*\u{0}".utf8) + [8, 0, 0, 0], "scan.tif")
        #expect(BuiltInFormats.modules(reading: [jpeg, gif], writing: [.webp, .jpeg]) == .none)
        #expect(BuiltInFormats.modules(reading: [jpeg, gif], writing: [.avif, .jpeg]) == .all)
        #expect(BuiltInFormats.modules(reading: [jpeg, tiff], writing: [.jpeg]) == .all)
        #expect(BuiltInFormats.modules(reading: [jpeg, folder.path("missing.jpg")], writing: [.jpeg]) == .all)
    }
}
