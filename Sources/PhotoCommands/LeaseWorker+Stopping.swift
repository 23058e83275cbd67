import Dispatch
import Foundation
import Glibc
import JobEngine
import MediaJobCLI
import Synchronization

/// How a worker stops: the first stop claims nothing more and lets the chunks in flight reach their
/// boundary, and the store's reconnections give up soon after nothing runs; the second gives back
/// every chunk it holds at once and ends the process.
extension LeaseWorker {
    /// Claims nothing more; the chunks in flight go on to their boundary.
    package func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
    }

    /// Claims nothing more and stops the chunks in flight at their next stop check; they are given
    /// back unfinished (those that reach their end first are committed). As after a worker's first
    /// stop, the store gets ``storeWaitOnStop`` once no chunk's work is running, then stops
    /// reconnecting: what it did not take by then is rescued once its lease runs out.
    package func stopChunksInFlight() {
        stop()
        for task in held.tasks { task.expire() }
        Thread.detachNewThread { [self] in _ = stopReconnectingOnceNothingRuns() }
    }

    /// After the first stop: once no chunk is running (commits may still be landing), the store
    /// gets ``storeWaitOnStop`` more, after which its reconnections give up (``stopReconnecting(at:)``):
    /// a commit that cannot land by then fails, and its chunk is rescued once its lease runs out;
    /// the rest of ``run()``'s end (a slot's claim, the journal's pending entries, retiring) fails
    /// as promptly. If that end still waits on the store ``storeWaitOnStop`` later (a call stuck on a
    /// network that went silent), and nothing is in flight, the process ends (status 0).
    package func endWithoutWaitingOnTheStore() {
        guard let givesUpAt = stopReconnectingOnceNothingRuns() else { return }
        while runEnded.wait(timeout: .now() + 0.1) == .timedOut {
            guard held.isEmpty, givesUpAt.duration(to: .now) >= Self.storeWaitOnStop else { continue }
            console.err("Worker \(name) stopped without reaching the store: it did not answer within "
                + "\(Self.storeWaitOnStop), and nothing was in flight.")
            _exit(0)
        }
    }

    /// Waits until no chunk's work is running (commits, chunks given back and failures may still be
    /// reaching the store), then gives the store ``storeWaitOnStop`` more, after which its
    /// reconnections give up (``stopReconnecting(at:)``).
    /// - Returns: when they give up; `nil` when the work ended first.
    private func stopReconnectingOnceNothingRuns() -> ContinuousClock.Instant? {
        while held.counts.running > 0 {
            guard !workEnded.load(ordering: .sequentiallyConsistent) else { return nil }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let deadline = ContinuousClock.now + Self.storeWaitOnStop
        stopReconnecting(at: deadline)
        return deadline
    }

    /// Gives up the store's reconnections at `deadline`, on every connection of this worker's.
    private func stopReconnecting(at deadline: ContinuousClock.Instant) {
        for connection in [store, renewals, commits.store] { connection.stopReconnecting(at: deadline) }
    }

    /// The second stop: every chunk this worker holds is given back now (``giveBackAtOnce()``), it
    /// retires, and the process ends, naming the chunks not given back.
    package func stopAtOnce() -> Never {
        let (given, kept) = giveBackAtOnce(retiring: true)
        console.err("Worker \(name) stopped at once: gave back \(Plural.of(given, "chunk"))"
            + (Self.notGivenBack(kept).map { "; \($0)" } ?? "."))
        _exit(0)
    }

    /// Gives back every chunk this worker holds a lease on (those running, those whose commit has
    /// not landed, one claimed and not yet started, and one whose claim is answered meanwhile) and
    /// claims nothing more, so that other workers can claim them without waiting for their leases
    /// to run out. The store gets ``storeWaitOnStop`` for it, on a thread of its own; the chunks it
    /// did not take by then are rescued once their leases run out.
    /// - Parameter retiring: whether the worker then takes itself off the live workers, within the same wait.
    /// - Returns: how many chunks were given back, and those still held (by job and index).
    package func giveBackAtOnce(retiring: Bool = false) -> (given: Int, kept: [ChunkLease]) {
        stopReconnecting(at: .now + Self.storeWaitOnStop)
        let given = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            _ = held.giveBackAll { claimed in
                guard (try? store.release(claimed)) != nil else { return false }
                given.add(1, ordering: .sequentiallyConsistent)
                return true
            }
            if retiring { retire() }
            done.signal()
        }
        _ = done.wait(timeout: .now() + Self.storeWaitOnStop / .seconds(1))
        return (given.load(ordering: .sequentiallyConsistent), held.leases)
    }

    /// What a stop says of the chunks it could not give back (`kept`): their leases run out and
    /// other workers rescue them; `nil` when there are none.
    package static func notGivenBack(_ kept: [ChunkLease]) -> String? {
        guard !kept.isEmpty else { return nil }
        let named = kept.map { "chunk \($0.chunkIndex) of job \($0.jobID.short)" }.joined(separator: ", ")
        let rescue = kept.count == 1 ? "its lease will run out and another worker will rescue it."
            : "their leases will run out and other workers will rescue them."
        return "could not give back \(named) (the store did not take it within \(storeWaitOnStop)): \(rescue)"
    }
}
