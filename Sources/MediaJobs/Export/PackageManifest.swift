import FFmpeg
import Foundation
import JobEngine
import PhotoJobs
import TaskContract

/// One file of a package: its name in the package, where it lies, its size and SHA-256.
struct PackageFile: Codable, Equatable, Sendable {
    var name: String
    var size: Int64
    var sha256: String
    var path: String

    /// Measures the workspace's file called `name`.
    init(name: String, in workspace: Workspace) throws {
        let url = workspace.url(for: name)
        self.name = name
        self.path = url.path
        self.size = try FileSize.bytes(at: url.path)
        self.sha256 = try SHA256Hasher.hex(ofFile: url.path)
    }

    private enum CodingKeys: String, CodingKey { case name = "path", size, sha256 }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        size = try container.decode(Int64.self, forKey: .size)
        sha256 = try container.decode(String.self, forKey: .sha256)
        path = ""
    }
}

/// The package's `manifest.json`: every file's size and SHA-256, the assets skipped, and the
/// streams of videos that the package does not keep.
struct PackageManifest: Codable, Equatable, Sendable {
    static let fileName = "manifest.json"

    var name: String
    var files: [PackageFile]
    var skipped: [String]
    /// Streams an output could not keep (subtitles, data, attachments; the frames after the first
    /// of an animation exported to a still format), each naming its asset.
    var dropped: [String]

    /// Pretty, sorted JSON: the same package always has the same manifest bytes.
    func encoded() throws -> Data {
        try StableJSON.encode(self)
    }
}

/// A package that failed its own checks.
enum PackageError: CategorizedError {
    /// One asset's joined video failed its check: that asset's failure (skipped with
    /// `--skip-bad`), not the job's.
    case invalidVideo(String, String)
    case mismatch(String)

    var category: FailureCategory {
        switch self {
        case .invalidVideo: .invalidInput
        case .mismatch: .internal
        }
    }

    var message: String {
        switch self {
        case .invalidVideo(let name, let detail): "the joined video \(name) is not valid: \(detail)"
        case .mismatch(let detail): "the package failed its check: \(detail)"
        }
    }
}
