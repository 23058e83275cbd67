import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// Opens an image file, judged by its content, and applies its EXIF orientation.
    ///
    /// Before any pixel is decoded: the file must exist and be readable, a loader must recognise
    /// its content (a PNG named `.jpg` loads as PNG), the loader must not be blocked (SVG, PDF and
    /// other untrusted formats are refused), and the header's width × height must be within
    /// `limits`. Pixels are decoded later, when the image is saved or read, and any decode error
    /// (a truncated or damaged file) then fails that call with ``VipsError/Kind/corrupt``
    /// instead of producing garbage. Stray bytes between a JPEG's marker segments, which libjpeg
    /// only warns about, are skipped as libjpeg does (see ``ImageSource``).
    ///
    /// - Parameters:
    ///   - path: The file to open.
    ///   - limits: Bounds checked on the header.
    ///   - access: How the pixels will be read; see ``ImageAccess``.
    /// - Returns: The image, upright; ``loaderName`` tells which loader decoded it.
    /// - Throws: ``VipsError`` of kind ``VipsError/Kind/unreadable``, ``VipsError/Kind/corrupt``
    ///   (empty file, unreadable header), ``VipsError/Kind/unknownFormat``,
    ///   ``VipsError/Kind/blockedLoader(format:)`` or
    ///   ``VipsError/Kind/tooManyPixels(width:height:limit:)``.
    public static func load(
        _ path: String, limits: ImageLimits = ImageLimits(), access: ImageAccess = .random
    ) throws -> VipsImage {
        try Vips.ensureInitialized()
        try InputFile.checkReadable(path)
        let source = try ImageSource(path: path, loader: InputFile.loader(for: path))
        var image = try source.open(sequential: access == .sequential)
        try limits.check(width: image.width, height: image.height, path: path)
        if access == .sequential && vips_image_get_orientation(image.pointer) > 1 {
            // Turning the image upright reads it out of order: sequential access cannot.
            image = try source.open(sequential: false)
        }
        return try image.derive { shim_autorot($0, $1) }
    }

    /// A thumbnail whose longest side is `size`, never larger than the original, upright.
    ///
    /// Uses libvips' shrink-on-load (JPEG and WebP decode straight at a reduced size; a
    /// pyramidal or sub-IFD TIFF is read from the smallest level at least `size`), so it is
    /// much faster and lighter than ``load(_:limits:access:)`` followed by
    /// ``resize(maxWidth:maxHeight:)``. The same checks as ``load(_:limits:access:)`` run on
    /// the header first. The thumbnail is then computed at once into memory (at most
    /// size × size × bands bytes), so decode errors surface here and the result can be read
    /// any number of times.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - size: The longest side in pixels, at least 1.
    ///   - limits: Bounds checked on the source's header.
    /// - Throws: ``VipsError`` as for ``load(_:limits:access:)``, and ``VipsError/Kind/corrupt``
    ///   when decoding fails.
    public static func thumbnail(_ path: String, size: Int, limits: ImageLimits = ImageLimits()) throws -> VipsImage {
        try Vips.ensureInitialized()
        guard size >= 1, size <= Int(Int32.max) else {
            throw VipsError(.invalidArgument, path: path, reason: "thumbnail size \(size) must be at least 1")
        }
        try InputFile.checkReadable(path)
        return try ImageSource(path: path, loader: InputFile.loader(for: path)).thumbnail(size: size, limits: limits)
    }

    /// An image made from a copy of 8-bit interleaved pixels, row by row with no padding.
    ///
    /// One or two bands are grey (+ alpha); three or four are sRGB (+ alpha).
    ///
    /// - Parameters:
    ///   - data: `width × height × bands` bytes.
    ///   - width: Pixels per row, at least 1.
    ///   - height: Rows, at least 1.
    ///   - bands: 1 to 4.
    /// - Throws: ``VipsError/Kind/invalidArgument`` when the sizes and the byte count disagree.
    public static func fromPixels(_ data: Data, width: Int, height: Int, bands: Int) throws -> VipsImage {
        try Vips.ensureInitialized()
        guard width >= 1, height >= 1, width <= Int(Int32.max), height <= Int(Int32.max), (1...4).contains(bands)
        else {
            throw VipsError(.invalidArgument, path: nil,
                            reason: "pixel buffer of \(width)×\(height) with \(bands) bands is not a valid image size")
        }
        let (rowBytes, overflowRow) = width.multipliedReportingOverflow(by: bands)
        let (expected, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflowRow, !overflow, data.count == expected else {
            throw VipsError(.invalidArgument, path: nil,
                            reason: "\(data.count) bytes given for \(width)×\(height)×\(bands), which needs \(expected)")
        }
        var output: ImagePointer?
        let status = data.withUnsafeBytes { bytes in
            shim_from_memory(bytes.baseAddress, bytes.count, Int32(width), Int32(height), Int32(bands), &output)
        }
        try VipsError.check(status) { VipsError(.other, path: nil, libraryMessage: $0) }
        return VipsImage(owning: output!, sourcePath: nil)
    }
}
