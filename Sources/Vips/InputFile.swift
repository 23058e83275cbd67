import CVipsShim
import Glibc

/// Checks on an input file made before libvips opens it, so that a missing, unreadable, empty
/// or refused file gets a clear error instead of libvips' generic one.
enum InputFile {
    /// Throws ``VipsError/Kind/unreadable`` for a missing or unreadable path and for anything but
    /// a regular file (a folder; a FIFO or device, whose reads could block or never end), and
    /// ``VipsError/Kind/corrupt`` for an empty file.
    static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw VipsError(.unreadable, path: path, reason: String(cString: strerror(errno)))
        }
        if let kind = specialKind(info.st_mode) {
            throw VipsError(.unreadable, path: path, reason: "it is \(kind), not a regular file")
        }
        guard access(path, R_OK) == 0 else {
            throw VipsError(.unreadable, path: path, reason: String(cString: strerror(errno)))
        }
        if info.st_size == 0 {
            throw VipsError(.corrupt, path: path, reason: "the file is empty (0 bytes)")
        }
    }

    /// What a file of mode `mode` is, in words, unless it is a regular file.
    static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }

    /// The nickname of the loader that recognises the file by its content.
    /// - Throws: ``VipsError/Kind/unknownFormat`` when none does,
    ///   ``VipsError/Kind/blockedLoader(format:)`` when it is a blocked (untrusted) loader.
    static func loader(for path: String) throws -> String {
        // A JPEG is known by its first two bytes (``JPEGSignature``); reading them here spares the
        // test of every loader in turn, most of which open the file again (issue 15: 62 opens of
        // each photo for a thumbnail).
        if JPEGSignature.matchesFile(at: path) { return "jpegload" }
        guard let found = shim_find_loader(path) else {
            throw VipsError(.unknownFormat, path: path, libraryMessage: VipsError.takeLibraryMessage())
        }
        let loader = String(cString: found)
        if shim_operation_is_blocked(loader) != 0 {
            throw VipsError(.blockedLoader(format: formatName(ofLoader: loader)), path: path)
        }
        return loader
    }

    /// A loader nickname as a format name: `svgload` → `SVG`, `pdfload_source` → `PDF`.
    static func formatName(ofLoader loader: String) -> String {
        let base = loader.split(separator: "_").first.map(String.init) ?? loader
        let name = base.hasSuffix("load") ? String(base.dropLast(4)) : base
        return name.uppercased()
    }
}
