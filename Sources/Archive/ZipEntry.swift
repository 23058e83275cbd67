/// One file to put in a zip: its name inside the archive, where its bytes come from, and
/// whether to deflate them.
public struct ZipEntry: Sendable, Equatable {
    /// The entry's path inside the archive, with `/` between folders, for example
    /// `thumbnails/0001.jpg`. ``ZipWriter`` refuses names that ``validate(name:)`` refuses.
    public var name: String
    /// The path of the regular file whose contents become the entry.
    public var source: String
    /// Whether to deflate the contents (`true`, for text and JSON) or store them as they are
    /// (`false`, for media that is already compressed).
    public var compressed: Bool

    /// Describes one file to put in a zip.
    /// - Parameters:
    ///   - name: the entry's path inside the archive.
    ///   - source: the path of the regular file to read.
    ///   - compressed: `true` to deflate, `false` to store.
    public init(name: String, source: String, compressed: Bool) {
        self.name = name
        self.source = source
        self.compressed = compressed
    }
}
