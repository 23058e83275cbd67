import Foundation
import Testing
import Vips

@Suite struct EditTests {
    init() throws {
        try VipsTestSupport.start()
    }

    /// A 3×2 image whose pixels say where they are: (10·x, 10·y, 7).
    func numbered() throws -> VipsImage {
        try TestImages.pixels((0..<2).map { y in (0..<3).map { x in [UInt8(10 * x), UInt8(10 * y), 7] } })
    }

    @Test func cropReturnsExactlyTheRectangle() throws {
        let image = try TestImages.gradient(width: 10, height: 8)
        let cropped = try image.crop(x: 3, y: 2, width: 4, height: 5)
        #expect(cropped.width == 4)
        #expect(cropped.height == 5)
        #expect(try cropped.pixel(x: 0, y: 0) == image.pixel(x: 3, y: 2))
        #expect(try cropped.pixel(x: 3, y: 4) == image.pixel(x: 6, y: 6))
    }

    @Test(arguments: [(-1, 0, 2, 2), (0, 0, 11, 8), (9, 7, 2, 1), (0, 0, 0, 3)])
    func cropOutsideTheImageFailsClearly(rectangle: (Int, Int, Int, Int)) throws {
        let image = try TestImages.gradient(width: 10, height: 8)
        let error = try #require(vipsError {
            _ = try image.crop(x: rectangle.0, y: rectangle.1, width: rectangle.2, height: rectangle.3)
        })
        #expect(error.kind == .invalidArgument)
        #expect(error.message.contains("10×8"))
    }

    @Test func aQuarterTurnMovesTheBottomLeftCornerToTheTopLeft() throws {
        let turned = try numbered().rotate(quarterTurns: 1)
        #expect(turned.width == 2)
        #expect(turned.height == 3)
        #expect(try turned.pixel(x: 0, y: 0) == [0, 10, 7])  // was bottom left
        #expect(try turned.pixel(x: 1, y: 0) == [0, 0, 7])  // was top left
        #expect(try turned.pixel(x: 1, y: 2) == [20, 0, 7])  // was top right
    }

    @Test func aHalfTurnSwapsOppositeCorners() throws {
        let turned = try numbered().rotate(quarterTurns: 2)
        #expect(turned.width == 3)
        #expect(try turned.pixel(x: 0, y: 0) == [20, 10, 7])
        #expect(try turned.pixel(x: 2, y: 1) == [0, 0, 7])
    }

    @Test func threeQuarterTurnsMoveTheTopRightCornerToTheTopLeft() throws {
        let turned = try numbered().rotate(quarterTurns: 3)
        #expect(turned.width == 2)
        #expect(try turned.pixel(x: 0, y: 0) == [20, 0, 7])
        #expect(try turned.pixel(x: 0, y: 2) == [0, 0, 7])
        #expect(try numbered().rotate(quarterTurns: -1).pixel(x: 0, y: 0) == [20, 0, 7])
    }

    @Test func wholeTurnsReturnTheSameImage() throws {
        let image = try numbered()
        #expect(try image.rotate(quarterTurns: 4) === image)
        #expect(try image.rotate(quarterTurns: 0) === image)
    }

    @Test(arguments: [(300, 200, 120, 120, 120, 80), (101, 37, 50, 50, 50, 18), (200, 300, 1000, 150, 100, 150),
                      (1500, 1000, 640, 640, 640, 427), (7, 1000, 64, 64, 1, 64)])
    func resizeFitsInsideTheBox(sizes: (Int, Int, Int, Int, Int, Int)) throws {
        let (width, height, maxWidth, maxHeight, expectedWidth, expectedHeight) = sizes
        let resized = try TestImages.gradient(width: width, height: height).resize(maxWidth: maxWidth, maxHeight: maxHeight)
        #expect(resized.width == expectedWidth)
        #expect(resized.height == expectedHeight)
        #expect(try resized.pixels().data.count == expectedWidth * expectedHeight * 3)
    }

    @Test func resizeNeverEnlarges() throws {
        let image = try TestImages.gradient(width: 50, height: 40)
        #expect(try image.resize(maxWidth: 100, maxHeight: 100) === image)
    }

    @Test func resizeKeepsAlphaAndEightBitSamples() throws {
        let resized = try TestImages.gradient(width: 40, height: 40, bands: 4, alpha: 128).resize(maxWidth: 10, maxHeight: 10)
        #expect(resized.bands == 4)
        #expect(try resized.pixel(x: 5, y: 5)[3] == 128)
    }

    @Test func resizeKeepsAFlatColourFlat() throws {
        let flat = try TestImages.pixels(Array(repeating: Array(repeating: [90, 160, 220], count: 64), count: 64))
        let resized = try flat.resize(maxWidth: 13, maxHeight: 13)
        #expect(try resized.pixel(x: 6, y: 6) == [90, 160, 220])
    }
}
