extension ZipEntry {
    /// The longest name a zip header can hold, in UTF-8 bytes.
    public static let maximumNameLength = Int(UInt16.max)

    /// Checks that a name is a safe relative path inside a zip, one that cannot escape the
    /// folder it is extracted into.
    ///
    /// A valid name is non-empty, at most ``maximumNameLength`` UTF-8 bytes, does not start
    /// with `/`, has no empty, `.` or `..` component (so no `//` and no trailing `/`), and
    /// contains no backslash and no control character.
    /// - Parameter name: the name to check.
    /// - Throws: ``ArchiveError`` of kind ``ArchiveError/Kind/invalidEntryName`` saying which
    ///   rule the name breaks; its `path` is empty, the caller knows the zip.
    public static func validate(name: String) throws {
        if let reason = problem(with: name) {
            throw ArchiveError(.invalidEntryName, path: "", entry: name, detail: reason)
        }
    }

    /// Why a name is refused, or `nil` when it is valid.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maximumNameLength { return "the name is longer than \(maximumNameLength) bytes" }
        if name.hasPrefix("/") { return "the name is absolute (starts with '/')" }
        if name.contains("\\") { return "the name contains a backslash" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the name contains a control character"
        }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case "": return "the name has an empty folder (a '//' or a trailing '/')"
            case ".": return "the name has a '.' component"
            case "..": return "the name has a '..' component"
            default: continue
            }
        }
        return nil
    }
}
