import Glibc

/// Writes zip files with libarchive, reproducibly: the same entries always give the same bytes.
///
/// Every entry is a regular file with mode 0644, owner and group 0, no owner names, and the
/// modification time 2000-01-01T00:00:00Z whatever its source's times. Entries appear in the
/// order given. Contents stream through a 1 MiB buffer, so memory stays bounded whatever the
/// sizes. The zip's DOS date fields are computed by libarchive in the process's time zone, so
/// byte-identical output across machines also needs the same `TZ` (UTC is the safe choice),
/// and deflated entries the same zlib.
public enum ZipWriter {
    /// Writes `entries` into a new zip at `output`, replacing any file there.
    ///
    /// Names are checked before anything is written. Once `output` has been created, any
    /// failure, stop included, removes the partial zip (when `output` is a regular file); a file
    /// that could not be opened is left alone. Flushing to disk (`fsync`) is left to the caller.
    /// - Parameters:
    ///   - entries: the files to archive, in order; names must be valid and distinct (compared as
    ///     Swift strings, so two spellings of the same accented name count as one).
    ///   - output: the path of the zip to create.
    ///   - shouldStop: consulted before each entry and before each chunk (1 MiB) of its
    ///     contents; when it returns `true` the write is abandoned.
    /// - Throws: ``ArchiveError``: ``ArchiveError/Kind/invalidEntryName``,
    ///   ``ArchiveError/Kind/duplicateEntry``, ``ArchiveError/Kind/stopped``,
    ///   ``ArchiveError/Kind/sourceUnreadable``, ``ArchiveError/Kind/unsupportedSource``,
    ///   ``ArchiveError/Kind/sourceChanged`` or ``ArchiveError/Kind/writeFailed``.
    public static func write(
        _ entries: [ZipEntry], to output: String, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws {
        try validate(entries, output: output)
        let writer = try LibarchiveWriter(path: output)
        do {
            let buffer = ChunkBuffer()
            for entry in entries {
                try append(entry, to: writer, buffer: buffer, shouldStop: shouldStop ?? { false })
            }
            try writer.close()
        } catch {
            removePartial(output)
            throw error
        }
    }

    /// Refuses invalid and repeated names before any file is touched.
    private static func validate(_ entries: [ZipEntry], output: String) throws {
        var seen = Set<String>()
        for entry in entries {
            if let reason = ZipEntry.problem(with: entry.name) {
                throw ArchiveError(.invalidEntryName, path: output, entry: entry.name, detail: reason)
            }
            guard seen.insert(entry.name).inserted else {
                throw ArchiveError(.duplicateEntry, path: output, entry: entry.name, detail: "repeated name")
            }
        }
    }

    /// Streams one entry's source into the zip, chunk by chunk.
    private static func append(
        _ entry: ZipEntry, to writer: LibarchiveWriter, buffer: ChunkBuffer, shouldStop: () -> Bool
    ) throws {
        try stopIfAsked(shouldStop, writer: writer, entry: entry)
        let source = try SourceFile(path: entry.source, entry: entry.name)
        let header = try ArchiveEntryHeader(name: entry.name, size: source.size, zip: writer.path)
        try writer.begin(header, name: entry.name, compressed: entry.compressed)
        var remaining = source.size
        while remaining > 0 {
            try stopIfAsked(shouldStop, writer: writer, entry: entry)
            let count = try source.read(into: buffer.bytes, count: Int(min(remaining, Int64(buffer.bytes.count))))
            guard count > 0 else {
                throw ArchiveError(.sourceChanged, path: entry.source, entry: entry.name,
                                   detail: "it shrank from \(source.size) bytes")
            }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer.bytes[..<count]), entry: entry.name)
            remaining -= Int64(count)
        }
        guard try source.read(into: buffer.bytes, count: 1) == 0 else {
            throw ArchiveError(.sourceChanged, path: entry.source, entry: entry.name,
                               detail: "it grew beyond \(source.size) bytes")
        }
        try writer.finishEntry(entry.name)
    }

    private static func stopIfAsked(_ shouldStop: () -> Bool, writer: LibarchiveWriter, entry: ZipEntry) throws {
        if shouldStop() {
            throw ArchiveError(.stopped, path: writer.path, entry: entry.name, detail: "stop requested")
        }
    }

    /// Removes what a failed write left at `output`, but never anything that is not a regular
    /// file (a device such as `/dev/full`, say).
    private static func removePartial(_ output: String) {
        var status = stat()
        if lstat(output, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            unlink(output)
        }
    }
}
