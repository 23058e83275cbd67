import Foundation
import PhotoJobs

/// Where an export's manifest was read and what the command line changed in it, kept with the
/// job so that `restart` can read the project again as it is now and `resume` can tell whether
/// it changed.
public struct ManifestSource: Codable, Sendable, Equatable {
    /// The manifest file (`…/project.json`, or the `.json` file named on the command line).
    public var file: String
    /// `--keep-profile`: photos keep their colour space whatever `export.image.profile` says.
    public var keepProfile: Bool
    /// `--keep-metadata`: everything is kept whatever `export.metadata` says.
    public var keepMetadata: Bool

    public init(file: String, keepProfile: Bool, keepMetadata: Bool) {
        self.file = file
        self.keepProfile = keepProfile
        self.keepMetadata = keepMetadata
    }

    /// The project folder: the manifest's.
    public var folder: URL { URL(fileURLWithPath: file).deletingLastPathComponent() }

    /// Reads and checks the manifest as it is now, with the command line's overrides.
    /// - Throws: ``ManifestError`` naming the field.
    public func load() throws -> ProjectManifest {
        var manifest = try ProjectLoader.load(folder, manifest: URL(fileURLWithPath: file))
        if keepProfile { manifest.export.image.profile = .keep }
        if keepMetadata { manifest.export.metadata = .all }
        return manifest
    }
}
