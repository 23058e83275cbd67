import CArchive
import Glibc

/// A libarchive reader over one zip file; freed (and so closed) when released.
///
/// Only the seeking zip reader is enabled: it trusts the central directory at the end of the
/// file, so a truncated zip fails at once instead of yielding its first entries. Names are
/// converted in a UTF-8 character locale (``UTF8CharacterLocale``), so non-ASCII names survive
/// a process running in the C locale.
final class LibarchiveReader {
    private let pointer: OpaquePointer
    /// The zip being read.
    let path: String

    /// Opens the zip at `path`.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/readFailed``.
    init(path: String) throws {
        guard let pointer = archive_read_new() else {
            throw ArchiveError(.readFailed, path: path, detail: "libarchive could not allocate a reader", code: ENOMEM)
        }
        self.pointer = pointer
        self.path = path
        try UTF8CharacterLocale.run {
            try check(archive_read_support_format_zip_seekable(pointer))
            try check(archive_read_open_filename(pointer, path, 1 << 16))
        }
    }

    deinit {
        archive_read_free(pointer)
    }

    /// Moves to the next entry and describes it, or returns `nil` after the last one.
    func nextEntry() throws -> ZipEntryInfo? {
        try UTF8CharacterLocale.run { try readHeader() }
    }

    private func readHeader() throws -> ZipEntryInfo? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(pointer, &entry)
        if status == ARCHIVE_EOF { return nil }
        try check(status)
        guard let entry else {
            throw ArchiveError(.readFailed, path: path, detail: "libarchive returned no entry header")
        }
        let name = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) }
        guard let name else {
            throw ArchiveError(.readFailed, path: path, detail: "an entry has a name that is not UTF-8")
        }
        return ZipEntryInfo(name: name, size: archive_entry_size(entry))
    }

    /// Reads the next bytes of the entry in hand into `buffer`.
    /// - Returns: the number of bytes read, 0 at the end of the entry.
    func read(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws -> Int {
        try ArchiveError.check(
            count: archive_read_data(pointer, buffer.baseAddress, buffer.count), pointer, .readFailed,
            path: path, entry: entry
        )
    }

    private func check(_ status: Int32) throws {
        try ArchiveError.check(status, pointer, .readFailed, path: path)
    }
}
