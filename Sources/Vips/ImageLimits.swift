/// Bounds an input image must respect before any of its pixels are decoded.
public struct ImageLimits: Sendable, Codable, Equatable {
    /// The most pixels (width × height) an input may declare in its header. The default,
    /// 16 383 × 16 383, is the largest WebP and about 800 MB of 8-bit RGB once decoded.
    public var maxPixels: Int

    /// Limits with the given pixel cap.
    /// - Parameter maxPixels: The most pixels an input may declare.
    public init(maxPixels: Int = 268_402_689) {
        self.maxPixels = maxPixels
    }

    /// Decodes limits, taking the default for any missing field so manifests may omit it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxPixels = try container.decodeIfPresent(Int.self, forKey: .maxPixels) ?? ImageLimits().maxPixels
    }

    /// Throws ``VipsError/Kind/tooManyPixels(width:height:limit:)`` when the header's size is
    /// above the limit.
    func check(width: Int, height: Int, path: String) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw VipsError(.tooManyPixels(width: width, height: height, limit: maxPixels), path: path)
        }
    }
}
