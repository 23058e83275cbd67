import Dispatch
import Foundation
import Synchronization

/// Commits a worker's chunks under their leases off its slots' path, as a group-commit WAL writer
/// does: a slot that finished a chunk hands its commit over (``submit(_:checkpoint:landed:)``) and
/// claims its next chunk at once, while the committer's thread lands every commit waiting in one
/// batch (``LeasingJobStore/commit(_:)``: one transaction, one WAL flush, on the PostgreSQL store).
///
/// Durability is unchanged: a chunk's answer says `.committed` only once its commit is durable, so
/// a bar moved on that answer never shows work that is not; the bar may move a little later. The
/// commits that wait while a batch lands stay within the worker's ``allowance`` (a slot that would
/// pass it waits), and the next batch takes them all, so a worker killed with commits pending loses
/// at most the batch being landed and those waiting (``CommitAllowance``), whose chunks are rescued
/// after their leases and redone, as a chunk in flight is.
///
/// `mediajob worker` (``LeaseWorker``) and `lease-bench` commit through it, so the bench measures
/// what a worker does.
public final class LeaseCommitter: Sendable {
    /// What a slot hears once its commit landed: the store's answer, or the error that kept it from
    /// landing. Called on the committer's thread, before the next batch is taken.
    public typealias Landed = @Sendable (Result<LeaseCommit, any Error>) -> Void

    private struct Pending: Sendable {
        let lease: ChunkLease
        let checkpoint: Checkpoint
        let landed: Landed
    }

    /// Where the commits land: the worker's store, on a connection its slots' claims do not wait on.
    public let store: any LeasingJobStore
    /// How many commits may wait while a batch lands, by count and by their chunks' cost.
    public let allowance: CommitAllowance

    private struct State {
        /// The commits handed over and not yet taken into a batch.
        var pending: [Pending] = []
        /// What the chunks of ``pending`` cost together, in seconds.
        var pendingCost = 0.0
        /// The slots waiting for room in ``pending`` (``submit(_:checkpoint:landed:)``), woken as a batch takes it.
        var waitingForRoom: [DispatchSemaphore] = []
        /// How many commits were handed over and have not landed yet.
        var unlanded = 0
        /// Those waiting until every commit handed over has landed (``waitUntilLanded()``).
        var drainers: [DispatchSemaphore] = []
        var finished = false
    }

    private let state = Mutex(State())
    /// Signalled once per commit handed over, and once at ``finish()``.
    private let work = DispatchSemaphore(value: 0)

    /// Starts the committer's thread.
    /// - Parameters:
    ///   - store: where the commits land.
    ///   - allowance: how many commits may wait while a batch lands.
    public init(store: any LeasingJobStore, allowance: CommitAllowance) {
        self.store = store
        self.allowance = allowance
        Thread.detachNewThread { [self] in commitUntilFinished() }
    }

    /// Hands the chunk's commit over, waiting first while the commits waiting for a batch leave it
    /// no room in the ``allowance`` (by their count and their chunks' cost, `checkpoint`'s included).
    /// - Parameters:
    ///   - lease: the lease the chunk ran under.
    ///   - checkpoint: the chunk's cost, executor and the progress that includes it.
    ///   - landed: called with the answer once the commit landed (or failed to).
    public func submit(_ lease: ChunkLease, checkpoint: Checkpoint, landed: @escaping Landed) {
        while let noRoom = state.withLock({ state -> DispatchSemaphore? in
            guard allowance.admits(cost: checkpoint.costSeconds, beside: state.pending.count, costing: state.pendingCost) else {
                let noRoom = DispatchSemaphore(value: 0)
                state.waitingForRoom.append(noRoom)
                return noRoom
            }
            state.pending.append(Pending(lease: lease, checkpoint: checkpoint, landed: landed))
            state.pendingCost += max(0, checkpoint.costSeconds)
            state.unlanded += 1
            return nil
        }) {
            noRoom.wait()
        }
        work.signal()
    }

    /// Waits until every commit handed over so far has landed and its ``Landed`` was called.
    /// - Returns: whether any was still to land.
    @discardableResult
    public func waitUntilLanded() -> Bool {
        let drained = DispatchSemaphore(value: 0)
        guard state.withLock({ state -> Bool in
            guard state.unlanded > 0 else { return false }
            state.drainers.append(drained)
            return true
        }) else { return false }
        drained.wait()
        return true
    }

    /// Waits until every commit handed over has landed (``waitUntilLanded()``), then ends the
    /// committer's thread. Nothing may be handed over after.
    public func finish() {
        waitUntilLanded()
        state.withLock { $0.finished = true }
        work.signal()
    }

    /// The committer's thread: lands what waits, a batch at a time, until finished.
    private func commitUntilFinished() {
        while true {
            work.wait()
            let (batch, roomMade, finished) = state.withLock { state in
                defer {
                    state.pending = []
                    state.pendingCost = 0
                    state.waitingForRoom = []
                }
                return (state.pending, state.waitingForRoom, state.finished)
            }
            if finished { return }
            for slot in roomMade { slot.signal() }
            if !batch.isEmpty { land(batch) }
        }
    }

    /// Lands one batch and tells each slot its answer. A commit that the armed fault point
    /// (``FaultPoints/Point/leaseCommitBatch``) fails is answered with that error and not landed.
    private func land(_ batch: [Pending]) {
        var answers: [Result<LeaseCommit, any Error>?] = batch.map { entry in
            do {
                try FaultPoints.step(.leaseCommitBatch, operation: "commit", path: entry.lease.outputName) {}
                return nil
            } catch {
                return .failure(error)
            }
        }
        let landing = batch.indices.filter { answers[$0] == nil }
        let landed = store.commit(landing.map { (lease: batch[$0].lease, checkpoint: batch[$0].checkpoint) })
        for (index, answer) in zip(landing, landed) { answers[index] = answer }
        for (entry, answer) in zip(batch, answers) {
            entry.landed(answer ?? .failure(CommitterError.unanswered))
        }
        let drained = state.withLock { state -> [DispatchSemaphore] in
            state.unlanded -= batch.count
            guard state.unlanded == 0 else { return [] }
            defer { state.drainers = [] }
            return state.drainers
        }
        for drainer in drained { drainer.signal() }
    }

    /// A store answered fewer entries than it was given.
    private enum CommitterError: Error, CustomStringConvertible {
        case unanswered

        var description: String { "the store gave no answer for this commit" }
    }
}
