import CVips
import CVipsShim
import Dispatch
import Synchronization

extension VipsImage {
    /// A contact sheet: the images in rows of `columns`, each centred in a `cell` × `cell`
    /// square, `spacing` pixels apart, on `background`.
    ///
    /// Each image becomes its cell through ``sheetCell(size:background:)``. The last row is
    /// padded with `background`. The result is three-band sRGB without metadata,
    /// `min(columns, count)` cells wide.
    ///
    /// The cells are computed here, one per core at a time, into memory (as much as the images
    /// scaled to fit their cells take), so that saving the sheet only joins and encodes them; load
    /// the images with ``ImageAccess/sequential`` access, as the cells read each once.
    ///
    /// - Parameters:
    ///   - images: At least one image.
    ///   - columns: Cells per row, at least 1.
    ///   - cell: The side of each square cell in pixels, at least 1.
    ///   - spacing: Pixels between cells, at least 0.
    ///   - background: One value (grey) or three (R, G, B), 0…255.
    /// - Throws: ``VipsError/Kind/invalidArgument`` for an empty list or out-of-range sizes.
    public static func grid(
        _ images: [VipsImage], columns: Int, cell: Int, spacing: Int, background: [Double]
    ) throws -> VipsImage {
        try checkGrid(count: images.count, columns: columns, cell: cell, spacing: spacing, background: background)
        let cells = try sheetCells(images, size: cell, background: background)
        return try grid(cells: cells, columns: columns, cell: cell, spacing: spacing, background: background)
    }

    /// A contact sheet of cells already made by ``sheetCell(size:background:)`` with the same
    /// `cell` and `background`: the same sheet ``grid(_:columns:cell:spacing:background:)`` makes
    /// of the images the cells were made from. Each cell is centred in its square here.
    ///
    /// - Parameters:
    ///   - cells: At least one cell, in sheet order.
    ///   - columns: Cells per row, at least 1.
    ///   - cell: The side of each square cell in pixels, at least 1.
    ///   - spacing: Pixels between cells, at least 0.
    ///   - background: One value (grey) or three (R, G, B), 0…255.
    /// - Throws: ``VipsError/Kind/invalidArgument`` for an empty list or out-of-range sizes.
    public static func grid(
        cells: [VipsImage], columns: Int, cell: Int, spacing: Int, background: [Double]
    ) throws -> VipsImage {
        try checkGrid(count: cells.count, columns: columns, cell: cell, spacing: spacing, background: background)
        var pointers: [ImagePointer?] = cells.map(\.pointer)
        var output: ImagePointer?
        let status = withExtendedLifetime(cells) {
            background.withUnsafeBufferPointer { colour in
                shim_sheet(&pointers, Int32(pointers.count), &output, Int32(min(columns, cells.count)),
                           Int32(spacing), Int32(cell), colour.baseAddress, Int32(colour.count))
            }
        }
        try VipsError.check(status) { VipsError(.other, path: nil, libraryMessage: $0) }
        // The first cell's metadata (its EXIF, its author) would otherwise stand for the sheet.
        return try VipsImage(owning: output!, sourcePath: nil).withoutMetadata()
    }

    /// This image as a contact-sheet cell: converted to 8-bit sRGB (through its colour profile),
    /// flattened onto `background` if it has alpha, and scaled down to fit a `size` × `size`
    /// square if larger (thumbnails made with ``thumbnail(_:size:limits:)`` at `size` already
    /// fit), all computed into memory here. Decode errors surface here; the cell can be read any
    /// number of times, from any thread. ``grid(cells:columns:cell:spacing:background:)`` centres
    /// it in its square of `background` as it joins the cells, in one operation that works out
    /// the background's pixel once (libvips' own join and centring evaluate it again for every
    /// image they place, about 0.7 ms of CPU each).
    /// - Throws: ``VipsError`` when the image cannot be decoded or converted.
    public func sheetCell(size: Int, background: [Double]) throws -> VipsImage {
        try colourManaged(.srgb).toSRGB8()
            .flattened(background: background)
            .resize(maxWidth: size, maxHeight: size)
            .computedInMemory()
    }

    /// Each image's ``sheetCell(size:background:)``, in order, made one per core at a time; the
    /// first error thrown, if any.
    public static func sheetCells(_ images: [VipsImage], size: Int, background: [Double]) throws -> [VipsImage] {
        try computedAtOnce(images) { try $0.sheetCell(size: size, background: background) }
    }

    /// Throws unless a sheet of `count` cells can be made with these settings.
    private static func checkGrid(count: Int, columns: Int, cell: Int, spacing: Int, background: [Double]) throws {
        guard count > 0, columns >= 1, cell >= 1, spacing >= 0, background.count == 1 || background.count == 3 else {
            throw VipsError(.invalidArgument, path: nil,
                            reason: "a contact sheet needs at least one image, 1 or more columns, a cell of 1 or "
                                + "more pixels, spacing of 0 or more and a background of 1 or 3 values")
        }
    }

    /// `compute` applied to each image, on as many threads as there are cores; the first error
    /// thrown, if any.
    private static func computedAtOnce(
        _ images: [VipsImage], _ compute: @Sendable (VipsImage) throws -> VipsImage
    ) throws -> [VipsImage] {
        let results = Mutex<[Result<VipsImage, any Error>?]>(Array(repeating: nil, count: images.count))
        DispatchQueue.concurrentPerform(iterations: images.count) { index in
            let result = Result { try compute(images[index]) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }
}
