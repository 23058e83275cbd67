import CVips
import CVipsShim

/// A libvips image pointer.
typealias ImagePointer = UnsafeMutablePointer<CVips.VipsImage>

/// An image held by libvips: a recipe for pixels, computed when saved or read.
///
/// Every operation returns a new image and leaves the receiver as it was. libvips computes
/// lazily: an edit costs almost nothing until ``save(to:format:quality:metadata:shouldStop:)``,
/// ``encoded(format:quality:)`` or ``pixels()`` asks for the pixels, and decode errors of the
/// source file surface there.
///
/// `@unchecked Sendable` is sound because the image never changes after creation: this class
/// only reads the `VipsImage` it owns and hands it to libvips operations, which take their own
/// references and are safe to run from many threads on the same input (libvips' images are
/// immutable once built and its region and cache code is thread-safe). Metadata is never set on
/// a shared image; watching an evaluation uses a private view (see
/// ``save(to:format:quality:metadata:shouldStop:)``).
public final class VipsImage: @unchecked Sendable {
    /// The owned libvips image; released in `deinit`.
    let pointer: ImagePointer
    /// The file the pixels come from, to name it when decoding fails later.
    let sourcePath: String?

    /// Takes ownership of one reference to `pointer`.
    init(owning pointer: ImagePointer, sourcePath: String?) {
        self.pointer = pointer
        self.sourcePath = sourcePath
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Width in pixels.
    public var width: Int { Int(vips_image_get_width(pointer)) }

    /// Height in pixels.
    public var height: Int { Int(vips_image_get_height(pointer)) }

    /// Number of bands (channels), alpha included: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA.
    public var bands: Int { Int(vips_image_get_bands(pointer)) }

    /// Whether the last band is alpha.
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// The libvips loader that decoded the source file, judged by its content, for example
    /// `jpegload` or `pngload`; `nil` for images not loaded from a file.
    public var loaderName: String? {
        shim_loader_name(pointer).map { String(cString: $0) }
    }

    /// Whether the samples are 8-bit unsigned.
    var isEightBit: Bool { vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }

    /// libvips' colour interpretation (sRGB, B_W, …).
    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }

    /// Runs one libvips operation on this image and wraps its output, checking the status
    /// through the funnel. Errors name the source file.
    func derive(_ body: (ImagePointer, UnsafeMutablePointer<ImagePointer?>) -> Int32) throws -> VipsImage {
        var output: ImagePointer?
        let status = body(pointer, &output)
        try VipsError.check(status) { VipsError(.other, path: sourcePath, libraryMessage: $0) }
        guard let output else {
            throw VipsError(.other, path: sourcePath, reason: "libvips returned no image")
        }
        return VipsImage(owning: output, sourcePath: sourcePath)
    }
}
