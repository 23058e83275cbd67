import Foundation

/// A fresh folder under the system's temporary folder, removed when released.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}
