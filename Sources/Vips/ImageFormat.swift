import CVipsShim

/// An output image format.
public enum ImageFormat: String, Codable, CaseIterable, Sendable {
    /// JPEG: lossy, no alpha (images with alpha are flattened onto white).
    case jpeg
    /// WebP: lossy at the given quality, keeps alpha.
    case webp
    /// AVIF (AV1 in HEIF): lossy at the given quality, keeps alpha. Needs libheif with an AV1
    /// encoder; see ``isAvailable``.
    case avif
    /// PNG: lossless, zlib compression level 6, keeps alpha.
    case png

    /// The usual file name extension, without the dot: `jpg`, `webp`, `avif`, `png`.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        case .avif: "avif"
        case .png: "png"
        }
    }

    /// The libvips saver this format uses: `jpegsave`, `webpsave`, `heifsave`, `pngsave`.
    public var saverName: String {
        switch self {
        case .jpeg: "jpegsave"
        case .webp: "webpsave"
        case .avif: "heifsave"
        case .png: "pngsave"
        }
    }

    /// The format a person means by `name`: its own name or its usual extension, in any case
    /// (`jpeg`, `jpg`, `JPG`, `webp`, `avif`, `png`); `nil` for anything else.
    public init?(spelling name: String) {
        let lowered = name.lowercased()
        guard let format = ImageFormat(rawValue: lowered) ?? ImageFormat.allCases.first(where: { $0.fileExtension == lowered }) else {
            return nil
        }
        self = format
    }

    /// Whether this libvips has the format's saver (AVIF may be missing from some builds).
    public var isAvailable: Bool {
        (try? Vips.ensureInitialized()) != nil && shim_operation_exists(saverName) != 0
    }

    /// The formats this libvips can write.
    public static var available: [ImageFormat] {
        allCases.filter(\.isAvailable)
    }

    /// The shim's number for the format.
    var shimFormat: ShimFormat {
        switch self {
        case .jpeg: SHIM_FORMAT_JPEG
        case .webp: SHIM_FORMAT_WEBP
        case .avif: SHIM_FORMAT_AVIF
        case .png: SHIM_FORMAT_PNG
        }
    }

    /// Throws ``VipsError/Kind/formatUnavailable(_:)`` when ``isAvailable`` is false.
    func requireAvailable() throws {
        guard isAvailable else { throw VipsError(.formatUnavailable(self), path: nil) }
    }
}
