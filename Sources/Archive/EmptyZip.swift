import Glibc

/// Recognises the one zip libarchive cannot read: an archive with no entries.
///
/// Such a zip is only its 22-byte end-of-central-directory record, and libarchive's seeking
/// reader needs more bytes than that before it will bid on a file, so it reports
/// "Unrecognized archive format". ``ZipReader`` asks this first, so that reading back what
/// ``ZipWriter`` wrote for an empty list gives an empty list.
enum EmptyZip {
    /// An end-of-central-directory record for no entries and no comment.
    static let bytes: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    /// Whether the file at `path` is exactly an empty zip; `false` when it cannot be read (the
    /// reader then reports why).
    static func matches(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: bytes.count + 1)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count == bytes.count && head.prefix(count).elementsEqual(bytes)
    }
}
