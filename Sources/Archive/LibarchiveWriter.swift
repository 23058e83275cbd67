import CArchive
import Glibc

/// A libarchive writer producing one zip file; freed (and so closed) when released.
///
/// The options are chosen so that the same entries always give the same bytes: no
/// experimental `xl` fields, non-ASCII names always flagged as UTF-8, no padding after the
/// end of the archive. Names are converted in a UTF-8 character locale
/// (``UTF8CharacterLocale``), so they arrive intact whatever the process's locale.
final class LibarchiveWriter {
    private let pointer: OpaquePointer
    /// The zip being written.
    let path: String

    /// Creates the zip at `path`, replacing any file there.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/writeFailed``.
    init(path: String) throws {
        guard let pointer = archive_write_new() else {
            throw ArchiveError(.writeFailed, path: path, detail: "libarchive could not allocate a writer", code: ENOMEM)
        }
        self.pointer = pointer
        self.path = path
        try UTF8CharacterLocale.run {
            try check(archive_write_set_format_zip(pointer))
            try setOption("experimental", nil)
            try setOption("hdrcharset", "UTF-8")
            try check(archive_write_set_bytes_in_last_block(pointer, 1))
            try check(archive_write_open_filename(pointer, path))
        }
    }

    deinit {
        archive_write_free(pointer)
    }

    /// Starts an entry, deflated or stored. (The `zip:compression` option can be set only
    /// before the first entry; these calls change the method between entries.)
    func begin(_ header: ArchiveEntryHeader, name: String, compressed: Bool) throws {
        let method = compressed ? archive_write_zip_set_compression_deflate : archive_write_zip_set_compression_store
        try check(method(pointer), entry: name)
        try UTF8CharacterLocale.run {
            try check(archive_write_header(pointer, header.pointer), entry: name)
        }
    }

    /// Appends bytes to the entry in hand.
    func write(_ bytes: UnsafeRawBufferPointer, entry: String) throws {
        let written = try ArchiveError.check(
            count: archive_write_data(pointer, bytes.baseAddress, bytes.count), pointer, .writeFailed,
            path: path, entry: entry
        )
        guard written == bytes.count else {
            throw ArchiveError(.writeFailed, path: path, entry: entry,
                               detail: "libarchive took \(written) of \(bytes.count) bytes")
        }
    }

    /// Ends the entry in hand.
    func finishEntry(_ name: String) throws {
        try check(archive_write_finish_entry(pointer), entry: name)
    }

    /// Writes the central directory and closes the file.
    func close() throws {
        try check(archive_write_close(pointer))
    }

    private func setOption(_ key: String, _ value: String?) throws {
        try check(archive_write_set_format_option(pointer, "zip", key, value))
    }

    private func check(_ status: Int32, entry: String? = nil) throws {
        try ArchiveError.check(status, pointer, .writeFailed, path: path, entry: entry)
    }
}
