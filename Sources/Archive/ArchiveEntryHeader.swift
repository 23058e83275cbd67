import CArchive
import Glibc

/// A libarchive entry header describing one zip entry; freed when released.
///
/// Every field that could vary between runs or machines is fixed: the modification time,
/// the mode, the owner. Access, change and birth times are left unset, so libarchive writes
/// only the fixed modification time into the zip's extended-timestamp field.
final class ArchiveEntryHeader {
    /// The modification time of every entry: 2000-01-01T00:00:00Z.
    static let fixedModificationTime = 946_684_800

    /// The libarchive entry.
    let pointer: OpaquePointer

    /// A regular-file header with mode 0644, owner and group 0 and the fixed time.
    /// - Parameters:
    ///   - name: the entry's name inside the zip, already validated.
    ///   - size: the entry's size in bytes.
    ///   - zip: the zip being written, for errors.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/writeFailed`` when memory ran out.
    init(name: String, size: Int64, zip: String) throws {
        guard let pointer = archive_entry_new() else {
            throw ArchiveError(.writeFailed, path: zip, entry: name, detail: "libarchive could not allocate an entry",
                               code: ENOMEM)
        }
        self.pointer = pointer
        archive_entry_set_pathname_utf8(pointer, name)
        archive_entry_set_mode(pointer, S_IFREG | 0o644)
        archive_entry_set_uid(pointer, 0)
        archive_entry_set_gid(pointer, 0)
        archive_entry_set_size(pointer, size)
        archive_entry_set_mtime(pointer, Self.fixedModificationTime, 0)
    }

    deinit {
        archive_entry_free(pointer)
    }
}
