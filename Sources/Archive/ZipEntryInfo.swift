/// What a zip says about one of its entries.
public struct ZipEntryInfo: Sendable, Equatable {
    /// The entry's path inside the archive.
    public var name: String
    /// The entry's uncompressed size in bytes.
    public var size: Int64

    /// Describes an entry.
    /// - Parameters:
    ///   - name: the entry's path inside the archive.
    ///   - size: the entry's uncompressed size in bytes.
    public init(name: String, size: Int64) {
        self.name = name
        self.size = size
    }
}
