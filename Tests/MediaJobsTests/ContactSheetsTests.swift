@testable import MediaJobs
@testable import PhotoJobs
import Testing

@Suite struct ContactSheetsTests {
    @Test func fiftyThumbnailsMakeOneSheetOfEightColumnsUnderTheNamesOfBefore() {
        let sheets = ContactSheets(count: 50, cellsPerSheet: 100)
        #expect(sheets.sheetCount == 1)
        #expect(sheets.columns == 8) // ⌈√50⌉
        #expect(sheets.names == ["contact-sheet.jpg"])
        #expect(sheets.thumbnails(onSheet: 0) == 0..<50)
    }

    @Test func moreThumbnailsThanASheetHoldsMakeNumberedSheetsThatSort() {
        let sheets = ContactSheets(count: 1_001, cellsPerSheet: 100)
        #expect(sheets.sheetCount == 11)
        #expect(sheets.columns == 10)
        #expect(sheets.name(ofSheet: 0) == "contact-sheet-01.jpg")
        #expect(sheets.name(ofSheet: 10) == "contact-sheet-11.jpg")
        #expect(sheets.names == sheets.names.sorted())
        #expect(sheets.thumbnails(onSheet: 9) == 900..<1_000)
        #expect(sheets.thumbnails(onSheet: 10) == 1_000..<1_001) // the last holds what is left
    }

    @Test func noThumbnailsMakeNoSheet() {
        let sheets = ContactSheets(count: 0, cellsPerSheet: 100)
        #expect(sheets.sheetCount == 0)
        #expect(sheets.names.isEmpty)
    }

    @Test func aSheetHoldsAsManyColumnsAsFitInAJPEGsWidth() {
        // ⌊(65,535 + 8) / (256 + 8)⌋ = 248 columns; ⌊65,543 / 4,104⌋ = 15.
        #expect(ThumbnailJob.mostCellsPerSheet(size: 256) == 248 * 248)
        #expect(ThumbnailJob.mostCellsPerSheet(size: 4096) == 225)
    }
}
