/// How many finished chunks' commits may wait for a worker's committer (``LeaseCommitter``) while it
/// lands a batch: the more wait, the more share one WAL flush, and the more a worker killed with
/// commits waiting loses (their chunks are rescued after their leases and redone).
///
/// The allowance is counted in work, not only in chunks: commits may wait while the chunks they
/// hold cost at most ``work`` together (their measured cost, what redoing them costs), or while
/// fewer than ``always`` wait, whatever they cost; never more than ``most``. Long chunks therefore
/// wait two a slot, as a flush is nothing beside them, while short ones wait in groups of up to
/// ``most`` and share a flush. A worker killed with commits waiting loses at most the batch being
/// landed and those waiting behind it: at most `2 × most` chunks, and `2 × work` seconds of work
/// unless a slot's two commits cost more, besides the chunks it was running.
public struct CommitAllowance: Sendable, Hashable {
    /// How many commits may wait whatever their chunks cost: two a slot, so that a slot seldom waits
    /// for a flush.
    public let always: Int
    /// The most commits that may wait: 16 a slot, so that chunks that cost nothing (an empty chunk
    /// reports 0 s) are still counted.
    public let most: Int
    /// How much work the waiting commits' chunks may hold together, beyond ``always`` commits.
    public let work: Duration

    /// The allowance of a worker with `slots` slots.
    /// - Parameters:
    ///   - slots: how many chunks the worker runs at once (at least one).
    ///   - work: how much work the waiting commits may hold beyond two a slot (1 s by default).
    public init(slots: Int, work: Duration = .seconds(1)) {
        let slots = max(1, slots)
        always = 2 * slots
        most = 16 * slots
        self.work = work
    }

    /// Whether one more commit, whose chunk cost `cost` seconds, may wait beside `count` waiting
    /// commits whose chunks cost `waitingCost` seconds together.
    public func admits(cost: Double, beside count: Int, costing waitingCost: Double) -> Bool {
        guard count < most else { return false }
        return count < always || waitingCost + max(0, cost) <= work / .seconds(1)
    }
}
