import CVipsShim
import Foundation

/// Where libvips reads an input's bytes from.
///
/// Decoding is strict — any warning from a decoder fails it, so truncated and damaged files are
/// refused — with one exception real files need: stray bytes between a JPEG's marker segments
/// ("extraneous bytes before marker", which libjpeg skips with a warning and libvips' own
/// command line accepts). Such a JPEG is read from a copy in memory without those bytes, so that
/// every other warning still fails it. Stray bytes after compressed data (between progressive
/// scans, before the end marker) are not removed and are still refused.
enum ImageSource {
    /// The file itself, with the loader that recognised it.
    case file(path: String, loader: String)
    /// A JPEG that needs no cleaning, and its bytes mapped from the file. Images load from the
    /// file; a thumbnail is made from the mapped bytes, so that libvips does not open the file
    /// again for each of its steps (its loader tests, the header, the shrunk decode).
    case jpeg(path: String, data: Data)
    /// A JPEG's bytes without the stray ones; `path` names the file in errors.
    case cleanedJPEG(path: String, data: Data)

    /// The source for `path`, whose content `loader` recognised.
    init(path: String, loader: String) throws {
        guard loader == "jpegload" else {
            self = .file(path: path, loader: loader)
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        guard let segments = try? JPEGSegments(data, path: path) else {
            self = .file(path: path, loader: loader)  // too damaged to clean: the decoder says why
            return
        }
        self = segments.extraneousBytes > 0 ? .cleanedJPEG(path: path, data: segments.joined) : .jpeg(path: path, data: data)
    }

    /// The image's header; pixels are decoded when evaluated. `allFrames`: every frame of an
    /// animation stacked vertically (GIF, WebP; a cleaned JPEG has one).
    func open(sequential: Bool, allFrames: Bool = false) throws -> VipsImage {
        var output: ImagePointer?
        let status: Int32
        let path: String
        switch self {
        case .file(let file, let loader):
            path = file
            status = shim_open(loader, file, sequential ? 1 : 0, allFrames ? 1 : 0, &output)
        case .jpeg(let file, _):
            path = file
            status = shim_open("jpegload", file, sequential ? 1 : 0, allFrames ? 1 : 0, &output)
        case .cleanedJPEG(let file, let data):
            path = file
            status = data.withUnsafeBytes {
                shim_open_buffer("jpegload_buffer", $0.baseAddress, $0.count, sequential ? 1 : 0, 1, &output)
            }
        }
        return try Self.header(status, output, path: path)
    }

    /// A shrink-on-load thumbnail computed into memory, its longest side `size` or the image's own
    /// when smaller, once the header is within `limits` (see ``VipsImage/thumbnail(_:size:limits:)``).
    /// Images with an ICC profile are converted to sRGB through it (CMYK images always are).
    func thumbnail(size: Int, limits: ImageLimits) throws -> VipsImage {
        /// The size to ask for and whether to convert, from the header. Never enlarged: libvips'
        /// own "down only" setting is not used, because with it a pyramidal TIFF's thumbnail comes
        /// from a level smaller than asked (75×50 for any size).
        func shrink(to header: VipsImage, path: String) throws -> (size: Int32, toSRGB: Int32) {
            try limits.check(width: header.width, height: header.height, path: path)
            return (Int32(min(size, max(header.width, header.height))), header.hasColourProfile ? 1 : 0)
        }
        switch self {
        case .file(let path, _):
            let (size, toSRGB) = try shrink(to: open(sequential: true), path: path)
            return try Self.computed(path: path) { shim_thumbnail(path, size, toSRGB, &$0) }
        case .jpeg(let path, let data), .cleanedJPEG(let path, let data):
            // The header borrows the bytes, which stay valid until the thumbnail is in memory.
            return try data.withUnsafeBytes { bytes in
                var output: ImagePointer?
                let status = shim_open_buffer("jpegload_buffer", bytes.baseAddress, bytes.count, 1, 0, &output)
                let (size, toSRGB) = try shrink(to: Self.header(status, output, path: path), path: path)
                return try Self.computed(path: path) { shim_thumbnail_buffer(bytes.baseAddress, bytes.count, size, toSRGB, &$0) }
            }
        }
    }

    /// The image a loader opened with `status`, or the error saying its header cannot be read.
    private static func header(_ status: Int32, _ output: ImagePointer?, path: String) throws -> VipsImage {
        try VipsError.check(status) {
            VipsError(.corrupt, path: path, reason: "its header cannot be read", libraryMessage: $0)
        }
        return VipsImage(owning: output!, sourcePath: path)
    }

    /// Runs a thumbnail operation and computes its result into memory, so decode errors surface here.
    private static func computed(path: String, _ operation: (inout ImagePointer?) -> Int32) throws -> VipsImage {
        var output: ImagePointer?
        try VipsError.check(operation(&output)) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: path, destination: nil)
        }
        guard let output else { throw VipsError(.other, path: path, reason: "libvips returned no thumbnail") }
        return try VipsImage(owning: output, sourcePath: path).computedInMemory()
    }
}
