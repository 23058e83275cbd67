import Foundation
import JobEngine
import Synchronization
import TaskContract

/// The chunks a worker (``LeaseWorker``) holds a lease on, from the moment its claim is answered
/// until the chunk ended (its commit landed, or it was given back, failed or fenced): those
/// claimed and not yet started, those running, and those whose commit was handed over and has not
/// landed. Also counts the claims asked for and not yet answered, so that the worker's second stop
/// (``giveBackAll()``) can give back every chunk it holds, including one whose claim is answered
/// while the chunks are being given back.
package final class HeldChunks: Sendable {
    /// Names one held chunk, from its claim's answer to its end.
    package struct Key: Hashable, Sendable {
        fileprivate let value: Int
    }

    /// One held chunk: its lease, and once it runs, its task and heartbeat.
    package struct Chunk: Sendable {
        let lease: ChunkLease
        var running: (task: ContinuedTask, heartbeat: Heartbeat)?
        /// Its work ended: it is being committed, given back or failed.
        var workEnded = false
        /// Its commit was handed over and has not landed.
        var committing = false
        /// The second stop took it to give back (``giveBackAll()``).
        var givingBack = false
    }

    private struct State {
        var chunks: [Key: Chunk] = [:]
        var nextKey = 0
        var claimsAsked = 0
        var givingBack = false
    }

    private let state = Mutex(State())

    /// A slot is about to ask for a claim.
    /// - Returns: `false` once the chunks are given back: the slot asks for nothing more.
    package func mayClaim() -> Bool {
        state.withLock { state in
            guard !state.givingBack else { return false }
            state.claimsAsked += 1
            return true
        }
    }

    /// The answer of a claim ``mayClaim()`` allowed: the chunk it gave, if any, is held from now.
    /// - Returns: the chunk's key, and whether the slot may run it: not once the chunks are
    ///   given back (``giveBackAll()`` gives it back).
    package func answered(_ lease: ChunkLease?) -> (key: Key, runs: Bool)? {
        state.withLock { state in
            state.claimsAsked -= 1
            guard let lease else { return nil }
            let key = Key(value: state.nextKey)
            state.nextKey += 1
            state.chunks[key] = Chunk(lease: lease)
            return (key, !state.givingBack)
        }
    }

    /// The chunk started running as `task`, its lease kept by `heartbeat`.
    package func started(_ key: Key, task: ContinuedTask, heartbeat: Heartbeat) {
        state.withLock { $0.chunks[key]?.running = (task, heartbeat) }
    }

    /// The chunk's work ended (it ran to its end, stopped or failed): what is left is its commit,
    /// giving it back or recording its failure.
    package func workEnded(_ key: Key) {
        state.withLock { $0.chunks[key]?.workEnded = true }
    }

    /// The chunk's commit was handed over.
    package func committing(_ key: Key) {
        state.withLock { $0.chunks[key]?.committing = true }
    }

    /// The chunk ended: it is no longer held.
    package func ended(_ key: Key) {
        state.withLock { _ = $0.chunks.removeValue(forKey: key) }
    }

    /// Whether no chunk is held.
    package var isEmpty: Bool { state.withLock { $0.chunks.isEmpty } }

    /// How many chunks are held: running or not yet started, and with a commit handed over.
    package var counts: (running: Int, committing: Int) {
        state.withLock { state in
            state.chunks.values.reduce(into: (0, 0)) { counts, chunk in
                if chunk.committing { counts.1 += 1 } else if !chunk.workEnded { counts.0 += 1 }
            }
        }
    }

    /// The leases held, in the order of their jobs and chunks.
    package var leases: [ChunkLease] {
        state.withLock { $0.chunks.values.map(\.lease) }
            .sorted { ($0.jobID.rawValue, $0.chunkIndex) < ($1.jobID.rawValue, $1.chunkIndex) }
    }

    /// The tasks of the chunks running.
    package var tasks: [ContinuedTask] {
        state.withLock { $0.chunks.values.compactMap(\.running?.task) }
    }

    /// The heartbeats of the chunks of the jobs in `jobs` that are running.
    package func heartbeats(ofJobsIn jobs: Set<JobID>) -> [Heartbeat] {
        state.withLock { $0.chunks.values.filter { jobs.contains($0.lease.jobID) }.compactMap(\.running?.heartbeat) }
    }

    /// The second stop: no claim is asked for from now on, and the chunks held are taken to be
    /// given back, a claim answered meanwhile's too; returns once every claim asked for was
    /// answered and every chunk was taken, each once.
    /// - Parameter giveBack: gives one chunk back; says whether the store took it, and then the
    ///   chunk ends.
    /// - Returns: how many chunks were given back.
    package func giveBackAll(_ giveBack: (ChunkLease) -> Bool) -> Int {
        var given = 0
        while true {
            let (taken, claimsAsked) = state.withLock { state in
                state.givingBack = true
                let taken = state.chunks.filter { !$0.value.givingBack }
                for key in taken.keys { state.chunks[key]?.givingBack = true }
                return (taken, state.claimsAsked)
            }
            for (key, chunk) in taken where giveBack(chunk.lease) {
                ended(key)
                given += 1
            }
            // A claim asked for before the stop may still be answered with a chunk: wait for it
            // (the caller bounds the whole wait).
            if taken.isEmpty && claimsAsked == 0 { return given }
            if taken.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        }
    }
}
