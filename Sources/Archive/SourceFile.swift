import Glibc

/// An entry's source, open for reading; closes its descriptor when released.
final class SourceFile {
    private let descriptor: Int32
    /// The source's path.
    let path: String
    /// The entry being written from it, for errors.
    let entry: String
    /// The source's size in bytes when it was opened.
    let size: Int64

    /// Opens a regular file for reading.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/sourceUnreadable`` or
    ///   ``ArchiveError/Kind/unsupportedSource``.
    init(path: String, entry: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(.sourceUnreadable, path: path, entry: entry, detail: "open failed", code: errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw ArchiveError(.sourceUnreadable, path: path, entry: entry, detail: "fstat failed", code: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw ArchiveError(.unsupportedSource, path: path, entry: entry, detail: "not a regular file")
        }
        self.descriptor = descriptor
        self.path = path
        self.entry = entry
        self.size = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `count` bytes into the start of `buffer`, retrying on `EINTR`.
    /// - Returns: the number of bytes read, 0 at the end of the file.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/sourceUnreadable``.
    func read(into buffer: UnsafeMutableRawBufferPointer, count: Int) throws -> Int {
        while true {
            let result = Glibc.read(descriptor, buffer.baseAddress, min(count, buffer.count))
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw ArchiveError(.sourceUnreadable, path: path, entry: entry, detail: "read failed", code: errno)
        }
    }
}
