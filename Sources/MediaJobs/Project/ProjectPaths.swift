import Foundation

/// Resolves an asset's path inside its project folder, refusing any that leads outside it.
public enum ProjectPaths {
    /// The asset's location. The path must be relative, must not climb with `..`, and once
    /// symbolic links are followed (as far as the file system goes) must stay inside `folder`.
    /// - Throws: ``ManifestError`` naming `field`.
    public static func resolve(_ path: String, in folder: URL, field: String, manifest: String) throws -> URL {
        func refuse(_ problem: String) -> ManifestError {
            ManifestError(file: manifest, field: field, problem: problem)
        }
        guard !path.isEmpty else { throw refuse("must not be empty") }
        guard !path.hasPrefix("/") else { throw refuse("'\(path)' is absolute; give a path inside the project folder") }
        guard !path.split(separator: "/").contains("..") else {
            throw refuse("'\(path)' climbs out with '..'; give a path inside the project folder")
        }
        guard !path.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw refuse("contains control characters")
        }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let candidate = folder.appendingPathComponent(path)
        let resolved = resolveExisting(candidate)
        guard resolved.path == root || resolved.path.hasPrefix(root + "/") else {
            throw refuse("'\(path)' leads outside the project folder (through a symbolic link)")
        }
        return candidate
    }

    /// Follows symbolic links in the longest existing prefix of `url`, keeping the rest as written.
    private static func resolveExisting(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            var isLink = false
            if let attributes = try? FileManager.default.attributesOfItem(atPath: existing.path) {
                isLink = attributes[.type] as? FileAttributeType == .typeSymbolicLink
            }
            if isLink { break } // a dangling link: resolve it as it stands
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: existing.path) {
            resolved = URL(fileURLWithPath: target, relativeTo: existing.deletingLastPathComponent()).standardizedFileURL
        }
        for component in rest { resolved.appendPathComponent(component) }
        return resolved.standardizedFileURL
    }
}
