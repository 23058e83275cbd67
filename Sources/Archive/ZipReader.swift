/// Reads zip files with libarchive: the list of entries, and each entry's contents as a stream.
///
/// Reading relies on the central directory at the end of the zip, so a truncated zip fails
/// at once with ``ArchiveError/Kind/readFailed`` (category `.invalidInput`) naming the file.
public enum ZipReader {
    /// Lists a zip's entries, in the order they are stored.
    ///
    /// Only the zip's directory and headers are read; damaged contents show up when they are
    /// read through ``forEachEntry(of:_:)``.
    /// - Parameter path: the zip to read.
    /// - Returns: each entry's name and uncompressed size.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/readFailed`` when the zip is
    ///   missing, truncated, corrupt or not a zip.
    public static func entries(of path: String) throws -> [ZipEntryInfo] {
        if EmptyZip.matches(path) { return [] }
        let reader = try LibarchiveReader(path: path)
        var entries: [ZipEntryInfo] = []
        while let info = try reader.nextEntry() {
            entries.append(info)
        }
        return entries
    }

    /// Visits a zip's entries in the order they are stored, offering each one's contents as a
    /// stream of chunks.
    ///
    /// ```swift
    /// try ZipReader.forEachEntry(of: path) { info, contents in
    ///     var hasher = SHA256()
    ///     try contents.readChunks { hasher.update(bufferPointer: $0) }
    ///     digests[info.name] = hasher.finalize()
    /// }
    /// ```
    /// - Parameters:
    ///   - path: the zip to read.
    ///   - body: called once per entry with its description and its contents, which are valid
    ///     only during the call; contents left unread are skipped.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/readFailed`` when the zip is
    ///   missing, truncated, corrupt or not a zip, or what `body` throws.
    public static func forEachEntry(
        of path: String, _ body: (ZipEntryInfo, ZipEntryContents) throws -> Void
    ) throws {
        if EmptyZip.matches(path) { return }
        let reader = try LibarchiveReader(path: path)
        let buffer = ChunkBuffer()
        while let info = try reader.nextEntry() {
            let contents = ZipEntryContents(reader: reader, buffer: buffer, name: info.name)
            defer { contents.isValid = false }
            try body(info, contents)
        }
    }
}
