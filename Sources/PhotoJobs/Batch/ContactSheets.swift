/// How a thumbnail run's thumbnails are laid out on contact sheets: at most ``cellsPerSheet`` a
/// sheet, in the run's order, so that a sheet's memory (its cells, computed at once) is the same
/// whatever the number of photos.
///
/// One sheet is `contact-sheet.jpg`; several are numbered from 1, with as many digits as the
/// last number (`contact-sheet-01.jpg` … `contact-sheet-12.jpg`), so that they sort in order.
/// Every sheet has the same number of columns, the square root of the cells of a full sheet
/// rounded up (8 for 50 thumbnails, 10 for sheets of 100); the last one may have fewer rows.
package struct ContactSheets: Equatable {
    /// Thumbnails on all the sheets.
    package let count: Int
    /// Most thumbnails on one sheet, at least 1.
    package let cellsPerSheet: Int

    /// Sheets needed for ``count`` thumbnails: 0 when there are none.
    package var sheetCount: Int { (count + cellsPerSheet - 1) / cellsPerSheet }

    /// Cells in a row, on every sheet.
    package var columns: Int { Int(Double(min(count, cellsPerSheet)).squareRoot().rounded(.up)) }

    /// The positions, among the thumbnails, of those on sheet `index` (from 0).
    package func thumbnails(onSheet index: Int) -> Range<Int> {
        index * cellsPerSheet ..< min(count, (index + 1) * cellsPerSheet)
    }

    /// The file name of sheet `index` (from 0).
    package func name(ofSheet index: Int) -> String {
        guard sheetCount > 1 else { return "contact-sheet.jpg" }
        let number = String(index + 1), digits = String(sheetCount).count
        return "contact-sheet-\(String(repeating: "0", count: digits - number.count))\(number).jpg"
    }

    /// Every sheet's file name, in order.
    package var names: [String] { (0..<sheetCount).map(name(ofSheet:)) }
}
