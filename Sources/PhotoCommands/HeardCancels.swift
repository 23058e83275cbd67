import JobEngine
import Synchronization

/// The cancels a worker's listener heard announced, counted as they come. A slot notes the count
/// before it claims, and once its chunk is in flight asks whether the chunk's job was cancelled
/// since: a cancel recorded after the claim read the job's cancel flag
/// (``ChunkLease/cancelRequested``) is announced after it, and the listener, finding the chunk not
/// yet in flight, leaves it to be found here.
package final class HeardCancels: Sendable {
    private struct State {
        var count: UInt64 = 0
        /// Each job's last cancel heard, by the count then.
        var last: [JobID: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// How many cancels were heard so far.
    package var count: UInt64 { state.withLock { $0.count } }

    /// Notes that the cancels of `jobs` were heard.
    package func heard(_ jobs: Set<JobID>) {
        state.withLock { state in
            for job in jobs {
                state.count += 1
                state.last[job] = state.count
            }
        }
    }

    /// Whether a cancel of `job` was heard after the count was `seen`.
    package func wasHeard(_ job: JobID, since seen: UInt64) -> Bool {
        state.withLock { ($0.last[job] ?? 0) > seen }
    }
}
