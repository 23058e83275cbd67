import Foundation
import Glibc
import TaskContract

/// A job's private folder, beside its destination so that publishing is one rename on one file
/// system. Chunk outputs are committed here; the folder outlives crashes and is removed once the
/// job is finished or discarded.
///
/// Work run under a lease (a worker's chunk or package stage, DESIGN.md §10) commits into a folder
/// of its own named by the lease, `leases/<key>.<epoch>`, so that a worker whose lease was taken
/// over never writes over the outputs of the worker that took it; the package stage reads the
/// chunks' outputs only from the folders their commits recorded (``reading(outputs:)``).
public struct Workspace: Sendable, Equatable {
    /// The folder.
    public let directory: URL
    /// Where this work commits its outputs: ``directory``, or the lease's own folder.
    private let outputFolder: URL
    /// The recorded outputs of the job's chunks run under leases: each file's name, and its folder.
    private let recorded: [String: URL]
    /// When a commit's rename is made durable.
    private let folderSync: FolderSync

    /// When a commit's rename is made durable: its folder synced.
    private enum FolderSync: Sendable, Equatable {
        /// Right after the rename.
        case eachCommit
        /// Once, at the end of ``Workspace/committingTogether(_:)``.
        case together
        /// By the runner, once for all the chunks it checkpoints together.
        case deferred(FolderSyncs)
    }

    /// The folder, inside the workspace, of the outputs of work run under leases.
    package static let leasesFolder = "leases"

    package init(directory: URL) {
        self.init(directory: directory, outputFolder: directory, recorded: [:])
    }

    private init(directory: URL, outputFolder: URL, recorded: [String: URL], folderSync: FolderSync = .eachCommit) {
        self.directory = directory
        self.outputFolder = outputFolder
        self.recorded = recorded
        self.folderSync = folderSync
    }

    /// The same workspace for a chunk that a runner checkpoints: its commits rename without
    /// syncing the folder and note the folder in `syncs`, which the runner syncs before it records
    /// the chunk done. An output is then durable once its chunk is checkpointed, not when its
    /// commit returns.
    package func deferringFolderSyncs(to syncs: FolderSyncs) -> Workspace {
        Workspace(directory: directory, outputFolder: outputFolder, recorded: recorded, folderSync: .deferred(syncs))
    }

    /// The same workspace for work run under a lease: it commits into `leases/<output>`, and finds
    /// there what it committed itself.
    /// - Parameter output: the lease's output name (`<key>.<epoch>`).
    package func leased(output: String) -> Workspace {
        let folder = directory.appendingPathComponent(Self.leasesFolder).appendingPathComponent(output)
        return Workspace(directory: directory, outputFolder: folder, recorded: recorded)
    }

    /// The same workspace reading the outputs committed under leases from `outputs`, the folders
    /// the done chunks' commits recorded (``ChunkRecord/output``), and no other lease's: what the
    /// package stage sees. Outputs committed by a process running the whole job lie in the
    /// workspace itself.
    /// - Throws: ``FileSystemError`` when a recorded folder cannot be listed (it is missing: its
    ///   chunk must be run again).
    package func reading(outputs: [String]) throws -> Workspace {
        var recorded: [String: URL] = [:]
        for output in outputs {
            let folder = directory.appendingPathComponent(Self.leasesFolder).appendingPathComponent(output)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw FileSystemError("list", path: folder.path, code: (error as NSError).underlyingErrno ?? ENOENT)
            }
            for name in names where !name.hasPrefix(TemporaryName.prefix) { recorded[name] = folder }
        }
        return Workspace(directory: directory, outputFolder: outputFolder, recorded: recorded)
    }

    /// Removes what this work committed under its lease (its lease was lost, or its commit refused:
    /// the outputs are not the chunk's); nothing for work not run under a lease.
    package func discardLeasedOutputs() throws {
        guard outputFolder != directory else { return }
        try DurableFiles.remove(outputFolder)
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

    /// The path of a committed output called `name`: one this work committed, else a chunk's
    /// recorded output, else the workspace's own; for a name nothing committed, where this work
    /// would commit it.
    public func url(for name: String) -> URL {
        let own = Self.path(of: name, in: outputFolder)
        let isLeased = outputFolder != directory
        if isLeased, DurableFiles.exists(own) { return own }
        if let folder = recorded[name] { return Self.path(of: name, in: folder) }
        let shared = Self.path(of: name, in: directory)
        return !isLeased || DurableFiles.exists(shared) ? shared : own
    }

    /// `name` in `folder`, made from the names alone: `appendingPathComponent` asks the file system
    /// whether the path is a folder, a `stat` per call, and a job of many chunks asks for paths
    /// several times a chunk.
    private static func path(of name: String, in folder: URL) -> URL {
        folder.appending(path: name, directoryHint: .inferFromPath)
    }

    /// Whether an output called `name` has been committed.
    public func contains(_ name: String) -> Bool {
        DurableFiles.exists(url(for: name))
    }

    /// Creates the folder (and this work's own, under a lease) if it is missing.
    ///
    /// The folder's own entry in its parent is not synced here for work not run under a lease: the
    /// runner syncs it with its first checkpoint (``FolderSyncs``).
    package func prepare() throws {
        guard outputFolder != directory else { return try DurableFiles.makeDirectory(directory) }
        guard !DurableFiles.exists(outputFolder) else { return }
        let isNewWorkspace = !DurableFiles.exists(directory)
        try DurableFiles.makeDirectory(outputFolder)
        // The lease's folder must outlive a crash of this machine once its commit is recorded, and
        // so must the workspace holding it: its entry in its parent is synced by the work that
        // made it, once a job, not once a chunk (a worker killed in between leaves that entry to
        // the kernel's own write-back).
        try DurableFiles.sync(outputFolder.deletingLastPathComponent())
        try DurableFiles.sync(directory)
        if isNewWorkspace { try DurableFiles.sync(directory.deletingLastPathComponent()) }
    }

    /// Commits an output: `write` fills a temporary path, which is then synced and renamed to
    /// `name` (replacing an earlier copy from a replayed chunk). Only after this returns does the
    /// output exist under its name.
    /// - Throws: whatever `write` throws, or ``FileSystemError``; the temporary file is removed.
    public func commit(_ name: String, write: (URL) throws -> Void) throws {
        try commit(name, temporaryWrittenBy: { temporary in
            try FaultPoints.step(.commitWrite, operation: "write", path: temporary.path) { try write(temporary) }
            try DurableFiles.sync(temporary)
        })
    }

    /// Commits `data` as the output called `name`: written and synced through one descriptor,
    /// then renamed.
    public func commit(_ name: String, data: Data) throws {
        try commit(name, temporaryWrittenBy: { temporary in
            try FaultPoints.step(.commitWrite, operation: "write", path: temporary.path) {
                try DurableFiles.write(data, to: temporary)
            }
        })
    }

    /// Runs `body` with a copy of this workspace whose commits leave out the sync of the output
    /// folder after each rename, then syncs that folder once: every output `body` committed is
    /// durable under its name when this returns. Work that commits several files (a chunk of
    /// thumbnails) pays one folder sync instead of one a file. When `body` throws, the folder is
    /// synced all the same, so that the outputs committed before the error stay durable too.
    /// - Throws: whatever `body` throws, or ``FileSystemError`` when the sync fails.
    ///
    /// In a chunk whose folder syncs the runner does (``deferringFolderSyncs(to:)``), this only
    /// runs `body`: the runner syncs the folder once for all the chunks it checkpoints together.
    public func committingTogether<T>(_ body: (Workspace) throws -> T) throws -> T {
        if case .deferred = folderSync { return try body(self) }
        let together = Workspace(directory: directory, outputFolder: outputFolder, recorded: recorded, folderSync: .together)
        let result: T
        do {
            result = try body(together)
        } catch {
            if DurableFiles.exists(outputFolder) { try? DurableFiles.sync(outputFolder) }
            throw error
        }
        if DurableFiles.exists(outputFolder) { try DurableFiles.sync(outputFolder) }
        return result
    }

    /// Runs `writeDurably`, which must leave the temporary path it is given written and synced,
    /// then renames that path to `name` in this work's output folder; removes it if anything fails.
    private func commit(_ name: String, temporaryWrittenBy writeDurably: (URL) throws -> Void) throws {
        try prepare()
        let temporary = Self.path(of: TemporaryName.next(for: name), in: outputFolder)
        do {
            try writeDurably(temporary)
            try DurableFiles.rename(temporary, to: Self.path(of: name, in: outputFolder), replacing: true,
                                    syncingFolder: folderSync == .eachCommit)
        } catch {
            try? DurableFiles.remove(temporary)
            throw error
        }
        if case .deferred(let syncs) = folderSync { syncs.add(outputFolder) }
    }

    /// Removes leftovers of writes that never committed.
    package func sweepTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(TemporaryName.prefix) {
            try? DurableFiles.remove(Self.path(of: name, in: directory))
        }
    }

    /// Removes the folder and everything in it.
    package func remove() throws {
        try DurableFiles.remove(directory)
    }
}
