import Foundation
import Glibc
import TaskContract

/// A job's private folder, beside its destination so that publishing is one rename on one file
/// system. Chunk outputs are committed here; the folder outlives crashes and is removed once the
/// job is finished or discarded.
public struct Workspace: Sendable, Equatable {
    /// The folder.
    public let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// The workspace for job `id` publishing to `destination`: a hidden folder beside it,
    /// `.<destination>.<prefix>-<job>`.
    package static func beside(_ destination: URL, for id: JobID, prefix: String) -> Workspace {
        let name = ".\(destination.lastPathComponent).\(prefix)-\(id.short)"
        return Workspace(directory: destination.deletingLastPathComponent().appendingPathComponent(name))
    }

    /// Whether `prefix` may name workspaces: letters, digits, `-` and `_`, at least one.
    static func isValidPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && prefix.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// The path of a committed output called `name`.
    public func url(for name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// Whether an output called `name` has been committed.
    public func contains(_ name: String) -> Bool {
        DurableFiles.exists(url(for: name))
    }

    /// Creates the folder if it is missing.
    package func prepare() throws {
        try DurableFiles.makeDirectory(directory)
    }

    /// Commits an output: `write` fills a temporary path, which is then synced and renamed to
    /// `name` (replacing an earlier copy from a replayed chunk). Only after this returns does the
    /// output exist under its name.
    /// - Throws: whatever `write` throws, or ``FileSystemError``; the temporary file is removed.
    public func commit(_ name: String, write: (URL) throws -> Void) throws {
        try prepare()
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)-\(name)")
        do {
            try FaultPoints.step(.commitWrite, operation: "write", path: temporary.path) { try write(temporary) }
            try DurableFiles.sync(temporary)
            try DurableFiles.rename(temporary, to: url(for: name), replacing: true)
        } catch {
            try? DurableFiles.remove(temporary)
            throw error
        }
    }

    /// Commits `data` as the output called `name`.
    public func commit(_ name: String, data: Data) throws {
        try commit(name) { temporary in
            do {
                try data.write(to: temporary)
            } catch {
                throw FileSystemError("write", path: temporary.path, code: (error as NSError).underlyingErrno ?? EIO)
            }
        }
    }

    /// Removes leftovers of writes that never committed.
    package func sweepTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".tmp-") {
            try? DurableFiles.remove(url(for: name))
        }
    }

    /// Removes the folder and everything in it.
    package func remove() throws {
        try DurableFiles.remove(directory)
    }
}
