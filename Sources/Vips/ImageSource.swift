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
    /// A JPEG's bytes without the stray ones; `path` names the file in errors.
    case cleanedJPEG(path: String, data: Data)

    /// The source for `path`, whose content `loader` recognised.
    init(path: String, loader: String) throws {
        guard loader == "jpegload" else {
            self = .file(path: path, loader: loader)
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        guard let segments = try? JPEGSegments(data, path: path), segments.extraneousBytes > 0 else {
            self = .file(path: path, loader: loader)  // clean, or too damaged to clean: the decoder says why
            return
        }
        self = .cleanedJPEG(path: path, data: segments.joined)
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
        case .cleanedJPEG(let file, let data):
            path = file
            status = data.withUnsafeBytes { shim_open_buffer("jpegload_buffer", $0.baseAddress, $0.count, sequential ? 1 : 0, &output) }
        }
        try VipsError.check(status) {
            VipsError(.corrupt, path: path, reason: "its header cannot be read", libraryMessage: $0)
        }
        return VipsImage(owning: output!, sourcePath: path)
    }

    /// A shrink-on-load thumbnail computed into memory (see ``VipsImage/thumbnail(_:size:limits:)``).
    /// `toSRGB`: convert through the image's ICC profile (CMYK images always are).
    func thumbnail(size: Int, toSRGB: Bool) throws -> VipsImage {
        let convert: Int32 = toSRGB ? 1 : 0
        switch self {
        case .file(let path, _):
            return try Self.computed(path: path) { shim_thumbnail(path, Int32(size), convert, &$0) }
        case .cleanedJPEG(let path, let data):
            // The bytes stay valid until the thumbnail is in memory.
            return try data.withUnsafeBytes { bytes in
                try Self.computed(path: path) { shim_thumbnail_buffer(bytes.baseAddress, bytes.count, Int32(size), convert, &$0) }
            }
        }
    }

    /// Runs a thumbnail operation and computes its result into memory, so decode errors surface here.
    private static func computed(path: String, _ operation: (inout ImagePointer?) -> Int32) throws -> VipsImage {
        var output: ImagePointer?
        try VipsError.check(operation(&output)) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: path, destination: nil)
        }
        guard let output else { throw VipsError(.other, path: path, reason: "libvips returned no thumbnail") }
        let lazy = VipsImage(owning: output, sourcePath: path)
        var inMemory: ImagePointer?
        try VipsError.check(shim_copy_memory(lazy.pointer, &inMemory)) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: path, destination: nil)
        }
        return VipsImage(owning: inMemory!, sourcePath: path)
    }
}
