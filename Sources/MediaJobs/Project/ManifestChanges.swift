import PhotoJobs
/// What differs between two versions of a project's manifest, in a person's words.
public enum ManifestChanges {
    /// Each change from `old` to `new`: assets removed, added, re-edited or renamed (by path),
    /// their order, the name and the export settings; empty when they are the same.
    public static func between(_ old: ProjectManifest, _ new: ProjectManifest) -> [String] {
        var changes: [String] = []
        if old.name != new.name { changes.append("the name changed from '\(old.name)' to '\(new.name)'") }
        let oldPaths = old.assets.map(\.path), newPaths = new.assets.map(\.path)
        changes += oldPaths.filter { !newPaths.contains($0) }.map { "\($0) was removed" }
        changes += newPaths.filter { !oldPaths.contains($0) }.map { "\($0) was added" }
        for asset in new.assets {
            guard let before = old.assets.first(where: { $0.path == asset.path }) else { continue }
            if before.edits != asset.edits { changes.append("the edits of \(asset.path) changed") }
            if before.output != asset.output {
                changes.append("the output of \(asset.path) changed from '\(before.output)' to '\(asset.output)'")
            }
        }
        let kept = newPaths.filter(oldPaths.contains)
        if kept != oldPaths.filter(newPaths.contains) { changes.append("the assets' order changed") }
        if old.export != new.export { changes.append("the export settings changed") }
        return changes
    }

    /// The changes from `old` to `new` other than those of the assets at `positions`, each
    /// re-edited, renamed or pointed at another file in its place: empty when only they changed.
    public static func outside(_ positions: Set<Int>, from old: ProjectManifest, to new: ProjectManifest) -> [String] {
        guard old.assets.count == new.assets.count else { return between(old, new) }
        var others = new
        for position in positions where others.assets.indices.contains(position) {
            others.assets[position] = old.assets[position]
        }
        return between(old, others)
    }
}
