import Glibc

/// The formats libvips reads and writes without its plugin modules, known by their first bytes as
/// libvips' own loaders know them, so that a process that reads and writes nothing else can start
/// without the modules (``Vips/Modules/none``) and make the same images.
///
/// A file that starts like one of these is taken by the same built-in loader when the modules are
/// there: libvips asks its loaders in order of priority, and PNG's and WebP's (200) come before
/// every module's, JPEG's and GIF's (50) after OpenSlide's alone (100), which takes only TIFF files,
/// SQLite databases and `.vms`/`.mrxs` key files that bear a slide scanner's marks. TIFF is not one
/// of them for that reason: OpenSlide takes a scanner's TIFF (an Aperio `.svs`), whose load is
/// then refused as untrusted, where libvips' own TIFF loader would read it.
public enum BuiltInFormats {
    /// The output formats libvips writes itself: all but AVIF (libheif's module).
    public static let writable: Set<ImageFormat> = [.jpeg, .png, .webp]

    /// How many first bytes tell the formats apart (WebP's "WEBP" ends at 12).
    static let signatureLength = 12

    /// Whether `bytes`, a file's first bytes, start as libvips' built-in loaders test: JPEG's
    /// start-of-image marker (``JPEGSignature``), PNG's eight-byte signature, "RIFF" with "WEBP" at
    /// byte 8, or "GIF8".
    static func isBuiltIn(start bytes: [UInt8]) -> Bool {
        JPEGSignature.matches(bytes) || ImageSignatures.isPNG(bytes) || ImageSignatures.isWebP(bytes)
            || ImageSignatures.isGIF(bytes)
    }

    /// Whether the file at `path` is a regular file that starts like a built-in format; `false`
    /// when it is anything else or cannot be read. Never waits on a FIFO or device.
    public static func fileIsBuiltIn(at path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var start = [UInt8](repeating: 0, count: signatureLength)
        let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, signatureLength, 0) }
        return count > 0 && isBuiltIn(start: Array(start.prefix(count)))
    }

    /// The plugin modules a process needs to read the files at `paths` and write `formats`: none
    /// when every file starts like a built-in format (by its content, whatever its name) and every
    /// format is ``writable``; all otherwise. The files are read on every core at once (the
    /// process waits for the answer to start libvips; a run of 20,000 photos not yet in the page
    /// cache would wait on their first reads one at a time), and no more once one needs the modules.
    ///
    /// The answer holds for the files as they are now: one that is replaced afterwards by a file
    /// only a module reads is then a file libvips does not know, which the caller must handle.
    public static func modules(reading paths: [String], writing formats: [ImageFormat]) -> Vips.Modules {
        formats.allSatisfy(writable.contains) && Concurrently.allSatisfy(paths.count, { fileIsBuiltIn(at: paths[$0]) }) ? .none : .all
    }
}
