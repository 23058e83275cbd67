import CVips
import Foundation

/// The peak signal-to-noise ratio between two images of the same size and band count, in
/// decibels, over all bands: `10 · log10(255² / MSE)`. Higher is closer; `infinity` when the
/// images are identical. For parity tests between two paths that should give the same result.
///
/// Samples are compared as 8-bit (other formats are cast, clipping to 0…255). Computes both
/// images' pixels.
///
/// - Throws: ``VipsError/Kind/invalidArgument`` when the sizes or band counts differ.
public func psnr(_ a: VipsImage, _ b: VipsImage) throws -> Double {
    guard a.width == b.width, a.height == b.height, a.bands == b.bands else {
        throw VipsError(.invalidArgument, path: a.sourcePath ?? b.sourcePath,
                        reason: "PSNR needs images of the same size and bands, not \(a.width)×\(a.height)×\(a.bands) "
                            + "and \(b.width)×\(b.height)×\(b.bands)")
    }
    let difference = try a.cast(to: VIPS_FORMAT_UCHAR).subtracting(b.cast(to: VIPS_FORMAT_UCHAR))
    let meanSquaredError = try difference.multiplying(difference).average()
    if meanSquaredError == 0 { return .infinity }
    return 10 * log10(255 * 255 / meanSquaredError)
}
