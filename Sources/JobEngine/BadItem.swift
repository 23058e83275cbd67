/// An item a job could not process, as the store keeps it: the item, why, and what became of it.
///
/// A chunk meets bad items while it runs; the package stage (finalisation) may meet more. Each is
/// either skipped (the job goes on without it, and a resumed job does not try it again unless it is
/// planned again: ``JobScheduler/resume(_:replanning:redoing:strategy:)``) or failed
/// (the job ends failed listing it, and resume tries it again). `status` shows both, and a job
/// kind lists the skipped ones in its result.
public struct BadItem: Sendable, Equatable, Codable {
    /// What became of a bad item.
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// Left out on purpose; the job completes without it.
        case skipped
        /// The job fails naming it; resume tries it again.
        case failed
    }

    /// The item, in the person's words (for example `assets[2] (beach.jpg)`).
    public var item: String
    /// What is wrong with it and what to do.
    public var reason: String
    public var outcome: Outcome
    /// The chunk that met it, or `nil` for the package stage.
    public var chunkIndex: Int?

    public init(item: String, reason: String, outcome: Outcome, chunkIndex: Int?) {
        self.item = item
        self.reason = reason
        self.outcome = outcome
        self.chunkIndex = chunkIndex
    }

    /// The item as an ``ItemFailure`` with the same words.
    public var failure: ItemFailure { ItemFailure(item: item, reason: reason) }
}
