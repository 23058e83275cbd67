import EngineTestKit
import Foundation
import MediaTestKit

/// A small tmpfs mounted for one test, so that a real file system fills up under a real export.
///
/// Mounting needs root (CI runs as root); without it the test fails and says so rather than
/// pretending. `unmount()` must be called (tests `defer` it): a mount outlives the process.
final class ScratchFileSystem {
    /// Where it is mounted.
    let mountPoint: URL

    /// Mounts a tmpfs of `kibibytes` at `mountPoint`, creating the folder.
    init(kibibytes: Int, at mountPoint: URL) throws {
        self.mountPoint = mountPoint
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try Self.tool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0755", "mediajob-test", mountPoint.path])
    }

    /// Changes its size in place; the files on it stay.
    func resize(kibibytes: Int) throws {
        try Self.tool("/usr/bin/mount", ["-o", "remount,size=\(kibibytes)k", mountPoint.path])
    }

    /// Unmounts it, discarding what is on it.
    func unmount() {
        try? Self.tool("/usr/bin/umount", [mountPoint.path])
    }

    /// A path on it.
    func path(_ name: String) -> String {
        mountPoint.appendingPathComponent(name).path
    }

    private static func tool(_ path: String, _ arguments: [String]) throws {
        do {
            try MediaFixtures.tool(path, arguments)
        } catch {
            throw MediaFixtures.FixtureError(message: "\(error); the disk-full tests mount a tmpfs and need root")
        }
    }
}
