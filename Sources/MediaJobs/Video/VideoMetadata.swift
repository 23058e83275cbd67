import Vips

/// The metadata policy (``MetadataPolicy``) for videos: which of a source's container tags an
/// output carries, re-encoded or copied.
///
/// `safe` keeps the capture time (`creation_time`), `copyright`, `artist` or `author`, and
/// `description` or `comment` (also in their language-tagged forms such as `copyright-eng`); it
/// drops location (`location`, `com.apple.quicktime.location.ISO6709`), device make, model and
/// serial number, software, and anything else. `all` keeps every tag. Tags the muxer writes of
/// its own accord (brands, encoder) are never carried over.
enum VideoMetadata {
    /// The tags the safe policy keeps.
    static let safeKeys: Set<String> = ["creation_time", "copyright", "artist", "author", "description", "comment"]

    /// Tags that describe the file's format rather than its content, rewritten by any muxer.
    private static let formatKeys: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder"]

    /// The tags of `tags` an output carries under `policy`.
    static func kept(_ tags: [String: String], policy: MetadataPolicy) -> [String: String] {
        tags.filter { key, _ in
            !formatKeys.contains(key) && (policy == .all || safeKeys.contains(baseKey(key)))
        }
    }

    /// Whether `policy` removes anything from `tags` (so that a copy must be rewritten).
    static func removesSomething(from tags: [String: String], policy: MetadataPolicy) -> Bool {
        kept(tags, policy: policy).count < tags.keys.filter { !formatKeys.contains($0) }.count
    }

    /// `copyright-eng` → `copyright`: a key without the language FFmpeg appends to QuickTime tags.
    private static func baseKey(_ key: String) -> String {
        guard let dash = key.lastIndex(of: "-"), key.distance(from: dash, to: key.endIndex) == 4 else { return key }
        return String(key[..<dash])
    }
}
