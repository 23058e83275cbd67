import EngineTestKit
import Foundation
@testable import MediaJobs
@testable import PhotoJobs
import Testing
import Vips

@Suite struct SheetCellCacheTests {
    private let folder = TemporaryDirectory()
    private var workspace: URL { folder.url }
    private let background: [Double] = [32, 32, 32]

    /// A thumbnail file at `name` and its cell.
    private func thumbnail(_ name: String, grey: UInt8 = 90) throws -> (path: String, cell: SheetCellCache.Cell) {
        let path = folder.path(name)
        let image = try VipsImage.fromPixels(Data(repeating: grey, count: 24 * 16 * 3), width: 24, height: 16, bands: 3)
        try image.save(to: path, format: .png, quality: 80, shouldStop: nil)
        let cell = try VipsImage.load(path).sheetCell(size: 32, background: background)
        return (path, SheetCellCache.Cell(image: cell, width: 24, height: 16))
    }

    @Test func aKeptCellIsHandedOutOnceForTheFileItWasMadeFrom() throws {
        let cache = SheetCellCache()
        let (path, cell) = try thumbnail("a.png")
        cache.keep(cell, madeFrom: path, in: workspace, cellSize: 32, background: background)

        let taken = cache.take(madeFrom: path, in: workspace, cellSize: 32, background: background)
        #expect(taken?.image === cell.image)
        #expect(taken?.width == 24 && taken?.height == 16)
        #expect(cache.take(madeFrom: path, in: workspace, cellSize: 32, background: background) == nil)
    }

    @Test func aCellIsNotHandedOutForAThumbnailMadeAgainOrOtherSheetSettings() throws {
        let cache = SheetCellCache()
        let (path, cell) = try thumbnail("a.png")
        cache.keep(cell, madeFrom: path, in: workspace, cellSize: 32, background: background)
        #expect(cache.take(madeFrom: path, in: workspace, cellSize: 64, background: background) == nil)

        cache.keep(cell, madeFrom: path, in: workspace, cellSize: 32, background: background)
        #expect(cache.take(madeFrom: path, in: workspace, cellSize: 32, background: [0]) == nil)

        cache.keep(cell, madeFrom: path, in: workspace, cellSize: 32, background: background)
        _ = try thumbnail("a.png", grey: 200) // a replayed chunk commits the thumbnail again
        #expect(cache.take(madeFrom: path, in: workspace, cellSize: 32, background: background) == nil)
    }

    @Test func cellsBeyondTheBudgetAreNotKept() throws {
        let (first, cell) = try thumbnail("a.png")
        let (second, _) = try thumbnail("b.png")
        let bytes = cell.image.width * cell.image.height * cell.image.bands
        let cache = SheetCellCache(budget: bytes)
        #expect(cache.hasRoom(in: workspace, size: 16))
        cache.keep(cell, madeFrom: first, in: workspace, cellSize: 32, background: background)
        #expect(!cache.hasRoom(in: workspace, size: 16))
        cache.keep(cell, madeFrom: second, in: workspace, cellSize: 32, background: background)

        #expect(cache.take(madeFrom: second, in: workspace, cellSize: 32, background: background) == nil)
        #expect(cache.take(madeFrom: first, in: workspace, cellSize: 32, background: background) != nil)
        #expect(cache.hasRoom(in: workspace, size: 16))
    }

    @Test func anotherJobsChunkOrTheEndOfTheJobDropsTheKeptCells() throws {
        let cache = SheetCellCache()
        let (path, cell) = try thumbnail("a.png")
        let other = TemporaryDirectory()
        cache.keep(cell, madeFrom: path, in: workspace, cellSize: 32, background: background)
        cache.keep(cell, madeFrom: path, in: other.url, cellSize: 32, background: background)
        #expect(cache.take(madeFrom: path, in: workspace, cellSize: 32, background: background) == nil)

        cache.drop(other.url)
        #expect(cache.take(madeFrom: path, in: other.url, cellSize: 32, background: background) == nil)
    }
}
