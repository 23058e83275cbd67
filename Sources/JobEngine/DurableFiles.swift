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
        try flush(fd, path: url.path)
    }

    /// Writes `data` to a new file at `url` and flushes it to stable storage, through one
    /// descriptor: one `fsync`, where writing with Foundation and then calling ``sync(_:)`` made
    /// two (Foundation's `Data.write` flushes on its own).
    /// - Throws: ``FileSystemError``; `EEXIST` when anything is already at `url`.
    package static func write(_ data: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw FileSystemError("open", path: url.path) }
        defer { close(fd) }
        try data.withUnsafeBytes { try write($0, to: fd, path: url.path) }
        guard isSyncEnabled else { return }
        try flush(fd, path: url.path)
    }

    /// Writes all of `bytes` to the open descriptor `fd`, however many calls that takes; `path`
    /// names it in errors.
    /// - Throws: ``FileSystemError``.
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            guard written >= 0 else {
                if errno == EINTR { continue }
                throw FileSystemError("write", path: path)
            }
            offset += written
        }
    }

    /// `fsync`s an open descriptor; `path` names it in errors.
    private static func flush(_ fd: Int32, path: String) throws {
        try FaultPoints.step(.fsync, operation: "fsync", path: path) {
            guard fsync(fd) == 0 else { throw FileSystemError("fsync", path: path) }
        }
    }

    /// Renames `source` to `destination` atomically; fails with `EEXIST` rather than replace
    /// anything unless `replacing` is set. Then syncs the destination's folder, unless
    /// `syncingFolder` is false: the caller then syncs it before counting on the new name.
    ///
    /// Without `replacing`, `renameat2(RENAME_NOREPLACE)` does it in one call. Where the file
    /// system refuses that flag (`EINVAL`, as NFS does) or the C library lacks the call (`ENOSYS`),
    /// a file is published by `link` (which never replaces) and `unlink` of the old name, and a
    /// folder by `rename` once nothing is found at the destination (a folder cannot be linked; an
    /// empty folder made at the destination in between would be replaced).
    package static func rename(_ source: URL, to destination: URL, replacing: Bool, syncingFolder: Bool = true) throws {
        try FaultPoints.step(.rename, operation: "rename", path: destination.path) {
            if replacing {
                guard Glibc.rename(source.path, destination.path) == 0 else {
                    throw FileSystemError("rename", path: destination.path)
                }
            } else {
                try renameWithoutReplacing(source, to: destination)
            }
        }
        if syncingFolder { try sync(destination.deletingLastPathComponent()) }
    }

    private static func renameWithoutReplacing(_ source: URL, to destination: URL) throws {
        guard LinuxRename.rename(source.path, destination.path, flags: LinuxRename.noReplace) != 0 else { return }
        let refusal = errno
        guard refusal == EINVAL || refusal == ENOSYS else { throw FileSystemError("rename", path: destination.path, code: refusal) }
        var source = (path: source.path, info: stat())
        guard lstat(source.path, &source.info) == 0 else { throw FileSystemError("rename", path: source.path) }
        if source.info.st_mode & S_IFMT == S_IFDIR {
            guard !exists(destination) else { throw FileSystemError("rename", path: destination.path, code: EEXIST) }
            guard Glibc.rename(source.path, destination.path) == 0 else { throw FileSystemError("rename", path: destination.path) }
        } else {
            guard link(source.path, destination.path) == 0 else { throw FileSystemError("link", path: destination.path) }
            guard unlink(source.path) == 0 else { throw FileSystemError("unlink", path: source.path) }
        }
    }

    /// Swaps two existing paths (both may be folders), then syncs their folders.
    ///
    /// `renameat2(RENAME_EXCHANGE)` swaps them atomically. Where the file system refuses that flag
    /// (`EINVAL`, as NFS does) or the C library lacks the call (`ENOSYS`), three renames through a
    /// name beside `first` do it instead: `second` is then briefly absent, and a crash meanwhile
    /// leaves it absent with both versions kept beside `first`, so that publishing again finds
    /// nothing at `second` and renames there as it would have the first time.
    package static func exchange(_ first: URL, with second: URL) throws {
        if LinuxRename.rename(first.path, second.path, flags: LinuxRename.exchange) != 0 {
            let refusal = errno
            guard refusal == EINVAL || refusal == ENOSYS else { throw FileSystemError("rename", path: second.path, code: refusal) }
            let aside = first.deletingLastPathComponent().appendingPathComponent(".\(first.lastPathComponent).replaced")
            guard Glibc.rename(second.path, aside.path) == 0 else { throw FileSystemError("rename", path: second.path) }
            guard Glibc.rename(first.path, second.path) == 0 else {
                let error = FileSystemError("rename", path: second.path)
                _ = Glibc.rename(aside.path, second.path) // puts the old one back; the error is the first rename's
                throw error
            }
            guard Glibc.rename(aside.path, first.path) == 0 else { throw FileSystemError("rename", path: first.path) }
            try sync(first.deletingLastPathComponent())
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
    ///
    /// A folder's entries are removed as they are read: Foundation's `removeItem` lists every entry
    /// of a folder before it removes any (13 MB for a job's workspace of 100,000 outputs, the
    /// self-test's peak memory).
    package static func remove(_ url: URL) throws {
        guard exists(url) else { return }
        try removeTree(named: url.path, in: AT_FDCWD, path: url.path)
    }

    /// Removes the file or folder tree `name` in the folder open as `parent` (or `AT_FDCWD`);
    /// `path` names it in errors.
    private static func removeTree(named name: String, in parent: Int32, path: String) throws {
        if unlinkat(parent, name, 0) == 0 || errno == ENOENT { return }
        guard errno == EISDIR else { throw FileSystemError("remove", path: path) }
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", path: path) }
        guard let folder = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            throw FileSystemError("opendir", path: path, code: code)
        }
        defer { closedir(folder) }
        // Entries removed while the folder is read may shift where the reading stands on some file
        // systems: read it again until nothing is left.
        var removed = true
        while removed {
            removed = false
            rewinddir(folder)
            while let entry = readdir(folder) {
                let child = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard child != ".", child != ".." else { continue }
                try removeTree(named: child, in: dirfd(folder), path: path + "/" + child)
                removed = true
            }
        }
        guard unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT else { throw FileSystemError("rmdir", path: path) }
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
