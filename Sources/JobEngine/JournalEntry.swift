import Foundation

/// One step in a job's lifecycle journal: one JSON line per step.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// The steps the engine records.
    public enum Event: String, Sendable, Codable, CaseIterable {
        case submitted, started, progressFirst = "progress_first", checkpoint, expired, interrupted, ended
        /// A worker took a chunk under a lease (detail: chunk, epoch, worker, and the worker whose
        /// lease had expired when it was a rescue).
        case claimed
        /// A worker gave a chunk back unfinished (it was told to stop).
        case released
        /// A commit under a lease that had been lost was refused; its output is not the chunk's.
        case commitRefused = "commit_refused"
        /// A chunk run under a lease failed (detail: chunk, epoch, worker, message, and `retry` when
        /// it may succeed on another machine).
        case chunkFailed = "chunk_failed"
        /// A worker stopped a chunk itself because its lease was lost, or about to run out with no
        /// renewal (detail: chunk, epoch, worker, and `after_claim`: seconds from the claim's
        /// answer to the stop, by the worker's monotonic clock, which places the stop on the store's
        /// clock from the claim's ``JournalEntry/storedAt``); stamped when the chunk stopped, by the
        /// worker's clock, and written once the worker could reach the store again.
        case fenced
        /// A chunk's work waited for a resource others in this process held (detail: chunk,
        /// what it waited for, and figures such as how many held it); written by the job kind
        /// through ``JobContext/journal(_:_:)``.
        case waited
    }

    public var jobID: JobID
    public var at: Date
    public var event: Event
    /// Event details: chunk, outcome, process, message.
    public var detail: [String: String]
    /// When the store recorded the entry, by the store's own clock (the database's, for PostgreSQL),
    /// as the store reads it back; `nil` before then, and where the store keeps no clock of its own.
    /// Unlike ``at`` (the clock of the process that wrote the entry), it orders entries from many
    /// machines on one clock.
    public var storedAt: Date?

    public init(jobID: JobID, at: Date = Date(), event: Event, detail: [String: String] = [:], storedAt: Date? = nil) {
        self.jobID = jobID
        self.at = at
        self.event = event
        self.detail = detail
        self.storedAt = storedAt
    }

    private enum CodingKeys: String, CodingKey {
        case jobID = "job_id", at, event, detail, storedAt = "stored_at"
    }
}
