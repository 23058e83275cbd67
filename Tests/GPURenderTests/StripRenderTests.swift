import GPURender
@testable import MediaJobs
@testable import PhotoJobs
@testable import Vips
import XCTest

/// Pictures too large for one of the device's buffers (or the renderer's budget) render on the
/// GPU in strips of rows, each reading the rows its filters overlap, instead of falling back to
/// the CPU.
final class StripRenderTests: XCTestCase {
    /// The pixels of `recipe` rendered from `pixels` by `renderer`.
    private func rendered(_ recipe: RenderRecipe, _ pixels: Data, on renderer: GPURenderer) throws -> Data {
        var rgba = Data(count: recipe.width * recipe.height * 4)
        try pixels.withUnsafeBytes { source in
            try rgba.withUnsafeMutableBytes { try renderer.render(recipe, pixels: source, into: $0) }
        }
        return rgba
    }

    /// Strips compute each output pixel from the same samples with the same weights as the whole
    /// picture does, so the bytes are the same, for every turn, with and without a resize.
    func testStripsGiveTheWholePicturesBytes() throws {
        let pixels = try GPUSupport.pattern(width: 640, height: 480, bands: 4).pixels().data
        let whole = try GPUSupport.renderer()
        let small = try GPUSupport.renderer(memoryBudget: 1 << 20)
        for turns in 0...3 {
            for size in [nil, (width: 101, height: 77)] {
                var recipe = RenderRecipe(sourceWidth: 640, sourceHeight: 480, channels: 4,
                                          crop: .init(x: 31, y: 17, width: 401, height: 299), quarterTurns: turns,
                                          exposure: 0.2, saturation: 1.3)
                if let size { (recipe.width, recipe.height) = turns % 2 == 0 ? size : (size.height, size.width) }
                let what = "\(turns) turns, \(recipe.width)×\(recipe.height)"
                XCTAssertEqual(small.batchCapacity(for: recipe, output: .rgba, limit: 1), 0, "\(what) fits 1 MiB in one go")
                XCTAssertEqual(try rendered(recipe, pixels, on: small), try rendered(recipe, pixels, on: whole), what)
                XCTAssertLessThanOrEqual(small.allocatedBytes, small.memoryBudget)
            }
        }
    }

    /// A picture of more than 128 MiB (8-bit RGBA): over lavapipe's largest storage buffer, and
    /// over this renderer's budget on any device. It renders in strips on the GPU and matches the
    /// CPU path within the photo tolerance.
    func testAPictureOverTheDevicesBufferLimitMatchesTheCPUPath() throws {
        let limit = 128 << 20
        let renderer = try GPUSupport.renderer(memoryBudget: limit)
        let tile = try GPUSupport.pattern(width: 640, height: 480, bands: 4).pixels().data
        let (width, height) = (640 * 10, 480 * 11)
        XCTAssertGreaterThan(width * height * 4, limit)
        var pixels = Data(count: width * height * 4)
        pixels.withUnsafeMutableBytes { picture in
            tile.withUnsafeBytes { tile in
                for y in 0..<height {
                    for column in 0..<10 {
                        (picture.baseAddress! + (y * width + column * 640) * 4)
                            .copyMemory(from: tile.baseAddress! + (y % 480) * 640 * 4, byteCount: 640 * 4)
                    }
                }
            }
        }
        let image = try VipsImage.fromPixels(pixels, width: width, height: height, bands: 4)
        var edits = ProjectManifest.Edits()
        edits.crop = .init(x: 13, y: 7, width: 6300, height: 5200)
        edits.rotate = 90
        edits.maxWidth = 1500
        edits.saturation = 1.2
        let cpu = try MediaSettings.apply(edits, to: image)
        let gpu = try GPUPhotoEdits.apply(edits, to: image, on: renderer)
        XCTAssertEqual(gpu.width, cpu.width)
        XCTAssertEqual(gpu.height, cpu.height)
        for (what, a, b) in [("colour", try gpu.flattened(background: [0]), try cpu.flattened(background: [0])),
                             ("alpha", try gpu.extractBands(first: 3, count: 1), try cpu.extractBands(first: 3, count: 1))] {
            let decibels = try psnr(a, b)
            print("parity of a \(width)×\(height) picture in strips, \(what): \(decibels) dB")
            XCTAssertGreaterThanOrEqual(decibels, PhotoParityTests.tolerance, what)
        }
    }
}
