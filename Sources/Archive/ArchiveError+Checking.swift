import CArchive

/// The one funnel through which libarchive results become ``ArchiveError``s.
extension ArchiveError {
    /// Captures libarchive's message and `errno` at the failure site.
    /// - Parameters:
    ///   - archive: the libarchive handle that failed.
    ///   - kind: ``Kind/writeFailed`` or ``Kind/readFailed``.
    ///   - path: the zip being written or read.
    ///   - entry: the entry in hand, if any.
    init(capturing archive: OpaquePointer, _ kind: Kind, path: String, entry: String? = nil) {
        let detail = archive_error_string(archive).map { String(cString: $0) } ?? "libarchive gave no reason"
        self.init(kind, path: path, entry: entry, detail: detail, code: archive_errno(archive))
    }

    /// Throws unless a libarchive status is `ARCHIVE_OK`; warnings count as failures, since a
    /// warning from the zip format means a name or an entry's data did not come through intact.
    static func check(
        _ status: Int32, _ archive: OpaquePointer, _ kind: Kind, path: String, entry: String? = nil
    ) throws {
        guard status != ARCHIVE_OK else { return }
        throw ArchiveError(capturing: archive, kind, path: path, entry: entry)
    }

    /// Throws when a libarchive byte count is negative (a status); returns the count otherwise.
    @discardableResult
    static func check(
        count: Int, _ archive: OpaquePointer, _ kind: Kind, path: String, entry: String? = nil
    ) throws -> Int {
        guard count < 0 else { return count }
        throw ArchiveError(capturing: archive, kind, path: path, entry: entry)
    }
}
