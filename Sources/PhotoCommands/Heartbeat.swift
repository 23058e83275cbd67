import Foundation
import Glibc
import JobEngine
import Synchronization
import TaskContract

/// Keeps a chunk's lease while the chunk runs and until its commit landed (``end()``), and fences
/// the worker when it cannot: the chunk is
/// stopped (its task expired) once the lease, as last renewed, is about to run out by this
/// process's monotonic clock, whatever the renewal in progress is doing.
///
/// Two threads of its own, never the pool that runs tasks (a chunk computing and store calls
/// waiting for the store's one connection may fill that): one renews the lease every third of its
/// length, a blocking call that may wait as long as the network lets it (a link that dropped
/// silently); the other only watches the deadline, so fencing does not depend on the renewal
/// returning. Waits are relative and measured by the monotonic clock, never by the wall clock.
package final class Heartbeat: Sendable {
    package enum Ending: Equatable {
        /// The chunk ended while the lease was held.
        case held
        /// The job was asked to stop from some machine.
        case cancelRequested
        /// The lease ended, or was about to with no renewal: another worker may hold the chunk now.
        case lost
    }

    /// How long before the lease's end, by this process's clock, the chunk is stopped when no
    /// renewal came: a tenth of the lease, room for the chunk to reach its stop check before the
    /// database gives the chunk to another worker.
    package static func margin(of lease: Duration) -> Duration { lease / 10 }

    package let store: any LeasingJobStore
    package let lease: ChunkLease
    package let task: ContinuedTask

    private struct State {
        /// When the chunk is stopped unless a renewal moves it: the end of the lease as last
        /// renewed, counted from before the request was sent, less the margin.
        var fenceAt: ContinuousClock.Instant
        var ending = Ending.held
        var chunkEnded = false
    }

    private let state: Mutex<State>
    /// A pipe whose write end is written once, when the chunk ends: its read end wakes both threads.
    private let wake: (read: Int32, write: Int32)

    /// Starts both threads for a chunk claimed under `lease`.
    /// - Parameter claimedAt: when the claim was asked for, by ``ContinuousClock``: the lease cannot
    ///   have started before.
    package init(store: any LeasingJobStore, lease: ChunkLease, task: ContinuedTask, claimedAt: ContinuousClock.Instant) {
        self.store = store
        self.lease = lease
        self.task = task
        state = Mutex(State(fenceAt: claimedAt + lease.duration - Self.margin(of: lease.duration)))
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not inherited by child processes
        wake = (ends[0], ends[1])
        Thread.detachNewThread { [self] in renew() }
        Thread.detachNewThread { [self] in fence() }
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// The chunk ended: the threads stop (a renewal in progress is left to return on its own).
    /// - Returns: how the lease fared; `.lost` when the chunk was fenced or a renewal found the lease gone.
    package func end() -> Ending {
        let ending = state.withLock { state in
            state.chunkEnded = true
            return state.ending
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        return ending
    }

    /// Whether the lease was lost, or about to be with no renewal: the chunk was fenced.
    package var isLost: Bool {
        state.withLock { $0.ending == .lost }
    }

    /// The job was asked to stop (a renewal said so, or the cancel was announced): the chunk stops
    /// at its next stop check, and ``end()`` says `.cancelRequested` unless the lease was lost.
    package func cancelRequested() {
        let expire = state.withLock { state -> Bool in
            guard !state.chunkEnded, state.ending == .held else { return false }
            state.ending = .cancelRequested
            return true
        }
        if expire { task.expire() }
    }

    /// Renews every third of the lease until the chunk ends or the lease is lost.
    private func renew() {
        let clock = ContinuousClock()
        while !waitForEnd(until: clock.now + lease.duration / 3) {
            let asked = clock.now
            let renewal = try? store.renew(lease)
            let lost = state.withLock { state -> Bool in
                guard !state.chunkEnded, state.ending != .lost else { return false }
                switch renewal {
                case .renewed:
                    state.fenceAt = asked + lease.duration - Self.margin(of: lease.duration)
                    return false
                case .lost:
                    state.ending = .lost
                    return true
                case nil:
                    return false // the fence stops the chunk if no renewal comes in time
                }
            }
            if lost { task.expire() }
            if case .renewed(cancelRequested: true) = renewal { cancelRequested() }
            if state.withLock({ $0.ending == .lost }) { return }
        }
    }

    /// Stops the chunk once the deadline passes with no renewal having moved it.
    private func fence() {
        let clock = ContinuousClock()
        while true {
            let deadline = state.withLock { $0.fenceAt }
            if waitForEnd(until: deadline) { return }
            let fenced = state.withLock { state -> Bool in
                guard !state.chunkEnded, clock.now >= state.fenceAt else { return false }
                state.ending = .lost
                return true
            }
            if fenced {
                task.expire()
                return
            }
        }
    }

    /// Sleeps until `deadline` (by the monotonic clock) or until the chunk ends.
    /// - Returns: whether the chunk ended.
    private func waitForEnd(until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            if state.withLock({ $0.chunkEnded || $0.ending == .lost }) { return true }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            var entry = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
            let milliseconds = min((remaining / .milliseconds(1)).rounded(.up), Double(Int32.max))
            _ = poll(&entry, 1, Int32(milliseconds))
        }
    }
}
