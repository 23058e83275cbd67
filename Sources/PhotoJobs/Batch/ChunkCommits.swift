import Dispatch
import JobEngine
import Synchronization

/// A thumbnail chunk's commits, run one at a time on a thread of their own while the chunk makes
/// its next thumbnail: a commit mostly waits for the disk (its file's sync), and meanwhile the
/// chunk's core makes the next one instead of idling.
///
/// At most one commit is in flight: handing over the next waits for the one before, so a chunk
/// holds at most one finished thumbnail besides the one it is making, and its commits land in its
/// items' order. A chunk calls ``finish()`` before it returns, and ``waitForAll()`` when it throws,
/// so every commit it handed over has landed before its folder is synced and its checkpoint
/// recorded: outputs are as durable, and at the same point, as when committed in line.
package final class ChunkCommits: Sendable {
    private struct State {
        /// The items whose commit failed as bad items, with their places in the chunk.
        var itemFailures: [(position: Int, failure: ItemFailure)] = []
        /// The first other error a commit threw.
        var error: (any Error)?
    }

    private let queue = DispatchQueue(label: "mediajob.chunk-commits")
    private let group = DispatchGroup()
    private let state = Mutex(State())

    /// Runs `commit`, the commit of the chunk's item at `position`, once the commit handed over
    /// before it has finished. An ``ItemFailure`` it throws is kept for ``finish()``.
    /// - Throws: the error an earlier commit threw (not an ``ItemFailure``); `commit` then does
    ///   not run.
    package func add(at position: Int, _ commit: @escaping @Sendable () throws -> Void) throws {
        group.wait()
        try rethrowError()
        queue.async(group: group) { [self] in
            do {
                try commit()
            } catch let failure as ItemFailure {
                state.withLock { $0.itemFailures.append((position, failure)) }
            } catch {
                state.withLock { if $0.error == nil { $0.error = error } }
            }
        }
    }

    /// Waits for every commit handed over.
    /// - Returns: the item failures of the commits, with the items' places in the chunk.
    /// - Throws: the first other error a commit threw.
    package func finish() throws -> [(position: Int, failure: ItemFailure)] {
        waitForAll()
        try rethrowError()
        return state.withLock { $0.itemFailures }
    }

    /// Waits for every commit handed over, whatever they threw: for a chunk that is throwing.
    package func waitForAll() {
        group.wait()
    }

    private func rethrowError() throws {
        if let error = state.withLock({ $0.error }) { throw error }
    }
}
