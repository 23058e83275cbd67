import Foundation
import Synchronization

/// Folders whose renames are not durable yet: the chunks a runner runs commit their outputs
/// without syncing the folder after each rename, and add the folder here instead; the runner
/// syncs each folder once before it checkpoints the chunks that landed, so that chunks landing
/// together pay one folder sync between them (group commit).
///
/// A chunk adds its folders before its result reaches the runner, so every rename of a chunk the
/// runner checkpoints is durable once ``syncPending()`` returns.
package final class FolderSyncs: Sendable, Equatable {
    private let pending = Mutex<Set<String>>([])

    package init() {}

    /// Notes that a rename was made in `folder` and is not synced yet.
    func add(_ folder: URL) {
        pending.withLock { _ = $0.insert(folder.path) }
    }

    /// Syncs every folder noted since the last call, each once.
    /// - Throws: ``FileSystemError`` when a sync fails (the chunks waiting for it must not be
    ///   recorded done).
    package func syncPending() throws {
        let folders = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for folder in folders.sorted() { try DurableFiles.sync(URL(fileURLWithPath: folder)) }
    }

    package static func == (first: FolderSyncs, second: FolderSyncs) -> Bool { first === second }
}
