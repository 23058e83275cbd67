/// The contents of the entry in hand during ``ZipReader/forEachEntry(of:_:)``, read chunk by
/// chunk so that entries of any size can be hashed or copied in bounded memory.
///
/// Valid only inside the closure it is passed to; using it afterwards is a programming error.
/// Contents that are not read are skipped.
public final class ZipEntryContents {
    private let reader: LibarchiveReader
    private let buffer: ChunkBuffer
    private let name: String
    private var isConsumed = false
    var isValid = true

    init(reader: LibarchiveReader, buffer: ChunkBuffer, name: String) {
        self.reader = reader
        self.buffer = buffer
        self.name = name
    }

    /// Streams the entry's uncompressed bytes to `handle`, in chunks of at most 1 MiB, in order.
    ///
    /// The bytes passed to `handle` are valid only during that call. libarchive checks each
    /// entry's CRC-32 and size as the last chunk is read, so a damaged entry throws rather than
    /// ending quietly. The contents can be read once; a second call delivers nothing.
    /// - Parameter handle: called with each chunk; what it throws ends the read and is rethrown.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/readFailed`` when the entry is
    ///   damaged or unreadable, or what `handle` throws.
    public func readChunks(_ handle: (UnsafeRawBufferPointer) throws -> Void) throws {
        precondition(isValid, "ZipEntryContents used outside the closure it was passed to")
        guard !isConsumed else { return }
        isConsumed = true
        while true {
            let count = try reader.read(into: buffer.bytes, entry: name)
            if count == 0 { return }
            try handle(UnsafeRawBufferPointer(rebasing: buffer.bytes[..<count]))
        }
    }
}

/// Contents belong to one reader on one thread, inside one closure call.
@available(*, unavailable)
extension ZipEntryContents: Sendable {}
