import Foundation
import Glibc
import Synchronization

/// The durable file operations the engine is built on: write to a temporary name, `fsync`,
/// rename, `fsync` the folder. Nothing here ever leaves a half-written file under a final name.
///
/// The project's own modules share these; a job kind writes through ``Workspace/commit(_:write:)``.
package enum DurableFiles {
    private static let syncing = Atomic(true)

    /// Whether ``sync(_:)`` flushes. Only benchmarks turn it off, to measure what durability
    /// costs; nothing survives a power cut without it.
    package static var isSyncEnabled: Bool {
        get { syncing.load(ordering: .relaxed) }
        set { syncing.store(newValue, ordering: .relaxed) }
    }

    /// Flushes a file or folder to stable storage.
    /// - Throws: ``FileSystemError`` (a failed `fsync` must not be retried on the same data).
    package static func sync(_ url: URL) throws {
        guard isSyncEnabled else { return }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError("open", path: url.path) }
        defer { close(fd) }
        try FaultPoints.step(.fsync, operation: "fsync", path: url.path) {
            guard fsync(fd) == 0 else { throw FileSystemError("fsync", path: url.path) }
        }
    }

    /// Renames `source` to `destination` atomically; fails with `EEXIST` rather than replace
    /// anything unless `replacing` is set. Then syncs the destination's folder.
    package static func rename(_ source: URL, to destination: URL, replacing: Bool) throws {
        let flags = replacing ? 0 : LinuxRename.noReplace
        try FaultPoints.step(.rename, operation: "rename", path: destination.path) {
            guard LinuxRename.rename(source.path, destination.path, flags: flags) == 0 else {
                throw FileSystemError("rename", path: destination.path)
            }
        }
        try sync(destination.deletingLastPathComponent())
    }

    /// Swaps two existing paths atomically (both may be folders).
    package static func exchange(_ first: URL, with second: URL) throws {
        guard LinuxRename.rename(first.path, second.path, flags: LinuxRename.exchange) == 0 else {
            throw FileSystemError("rename", path: second.path)
        }
        try sync(second.deletingLastPathComponent())
    }

    /// Creates a folder and any missing parents.
    package static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw FileSystemError("mkdir", path: url.path, code: (error as NSError).underlyingErrno ?? EIO)
        }
    }

    /// Removes a file or folder tree; a missing one is fine.
    package static func remove(_ url: URL) throws {
        guard exists(url) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw FileSystemError("remove", path: url.path, code: (error as NSError).underlyingErrno ?? EIO)
        }
    }

    /// Whether anything (even a dangling link) is at `url`.
    package static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }
}

extension NSError {
    /// The POSIX error behind a Foundation file error, when there is one.
    var underlyingErrno: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingErrno
    }
}
