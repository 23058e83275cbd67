import Foundation
import TaskContract

/// Where jobs, their chunks, cost history, cancel requests and the lifecycle journal are kept.
///
/// The engine depends on this protocol alone. Every method is one transaction: a checkpoint is
/// durable when ``checkpoint(_:)`` returns. Stores may be used from several processes at once.
public protocol JobStore: Sendable {
    /// Adds a job with its planned chunks, at the back of the queue, and journals `submitted`.
    /// - Returns: the record as stored (with its queue position).
    func insert(_ job: JobRecord, chunks: [PlannedChunk]) throws -> JobRecord

    /// The job, or `nil` when there is none with that identity.
    func job(_ id: JobID) throws -> JobRecord?

    /// All jobs, oldest first.
    func jobs() throws -> [JobRecord]

    /// The workspace of every finished job (completed, discarded or rejected), by job: what the
    /// clean-up after finished jobs removes (``JobScheduler/cleanFinishedWorkspaces()``), which every
    /// command runs, read without the jobs' records.
    func finishedWorkspaces() throws -> [(id: JobID, workspace: String)]

    /// The job for the same work that is not completed, discarded or rejected, if any.
    func unfinishedJob(workKey: String) throws -> JobRecord?

    /// The job's chunks, in order.
    func chunks(of id: JobID) throws -> [ChunkRecord]

    /// Up to `limit` of the job's chunks whose index is `start` or more, in order: a long job's
    /// chunks a page at a time, so that the engine never holds them all.
    func chunks(of id: JobID, from start: Int, limit: Int) throws -> [ChunkRecord]

    /// The work of the job's chunks not done, summed by stage: counters the store moves as chunks
    /// are planned, done, reset and planned again, so that reading them costs the same in a job of
    /// any size. The package stage is not counted.
    func owedWork(of id: JobID) throws -> OwedWork

    /// The job's progress as stored now (``JobRecord/progress``) and its owed work
    /// (``owedWork(of:)``), read together: what a worker's chunk moves the bar on from, read once
    /// for every chunk it commits (one round trip where the store is a server).
    /// - Throws: ``JobStoreError/noSuchJob(_:)`` when there is no such job.
    func progressAndOwedWork(of id: JobID) throws -> (progress: ProgressSnapshot, owed: OwedWork)

    /// How many of the job's done chunks each path (``ChunkRecord/executor``) did, for `status`.
    func executorCounts(of id: JobID) throws -> [String: Int]

    /// Records one chunk done, with the new progress, the cost sample and the items it skipped
    /// (replacing any bad items stored for the chunk before), in one transaction, and journals
    /// `checkpoint` (and `progress_first` for the job's first).
    func checkpoint(_ checkpoint: Checkpoint) throws

    /// Records several chunks done, in order, each as ``checkpoint(_:)`` records one: the chunks
    /// that landed together, so that they share one commit (one sync of the store's log). A store
    /// that can do it in one transaction records all of them or none; the default records them
    /// one after another.
    func checkpoint(_ checkpoints: [Checkpoint]) throws

    /// Replaces the bad items stored for one chunk, or for the package stage when `chunk` is `nil`,
    /// with `items`, all with `outcome`.
    func recordBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?) throws

    /// The job's bad items: those of its chunks in chunk order, then the package stage's.
    func badItems(of id: JobID) throws -> [BadItem]

    /// Sets a job's state (and what goes with it) and journals `event`, in one transaction.
    func transition(_ id: JobID, to change: StateChange, journal event: JournalEntry?) throws

    /// Marks every chunk of the job pending again, forgets its bad items and resets its progress
    /// (for `restart`).
    func resetChunks(of id: JobID, progress: ProgressSnapshot) throws

    /// Plans part of a stopped job again, in one transaction: removes its chunks that are not done
    /// and the done ones in ``Replan/redoing``, with their bad items and the package stage's; adds
    /// ``Replan/chunks`` after the job's last remaining chunk, not done; stores the job's new
    /// settings, work key and progress; and journals ``Replan/journalEntry``.
    func replan(_ replan: Replan) throws

    /// Asks whoever runs the job to stop at the next boundary.
    func requestCancel(_ id: JobID) throws

    /// Whether a stop was asked for and not yet acted on.
    func isCancelRequested(_ id: JobID) throws -> Bool

    /// Learned seconds per unit for each stage of a job kind on this machine.
    func costHistory(kind: String) throws -> [Stage: Double]

    /// The job's lifecycle journal, oldest first.
    func journal(of id: JobID) throws -> [JournalEntry]

    /// Appends to the journal.
    func append(_ entry: JournalEntry) throws

    /// Deletes a job's record with its chunks, journal and cancel request, in one transaction
    /// (for pruning finished jobs); nothing for a job that is not there.
    func remove(_ id: JobID) throws
}

extension JobStore {
    /// Reads every job (``jobs()``) and keeps the finished ones'; a store that can read their ids
    /// and workspaces alone does so instead.
    public func finishedWorkspaces() throws -> [(id: JobID, workspace: String)] {
        try jobs().filter(\.state.isFinished).map { ($0.id, $0.workspace) }
    }

    /// Records the checkpoints one after another, each in its own transaction.
    public func checkpoint(_ checkpoints: [Checkpoint]) throws {
        for checkpoint in checkpoints { try self.checkpoint(checkpoint) }
    }

    /// Pages through ``chunks(of:)``; a store that can read one page alone does so instead.
    public func chunks(of id: JobID, from start: Int, limit: Int) throws -> [ChunkRecord] {
        Array(try chunks(of: id).drop { $0.index < start }.prefix(max(0, limit)))
    }

    /// Sums the work of the chunks of ``chunks(of:)`` not done, a page at a time; a store that keeps
    /// the sums as counters reads those instead.
    public func owedWork(of id: JobID) throws -> OwedWork {
        var pages = ChunkPages(of: id, in: self, owedOnly: true)
        var owed = OwedWork()
        while let chunk = try pages.next() { owed.add(OwedChunk(chunk)) }
        return owed
    }

    /// Reads the job, then its owed work; a store that can read both in one statement does so instead.
    public func progressAndOwedWork(of id: JobID) throws -> (progress: ProgressSnapshot, owed: OwedWork) {
        guard let job = try job(id) else { throw JobStoreError.noSuchJob(id) }
        return (job.progress, try owedWork(of: id))
    }

    /// Counts the executors of ``chunks(of:)``; a store that can count without loading every
    /// chunk's plan does so instead.
    public func executorCounts(of id: JobID) throws -> [String: Int] {
        try chunks(of: id).compactMap(\.executor).reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}

/// One chunk's work made durable.
public struct Checkpoint: Sendable {
    public var jobID: JobID
    public var chunkIndex: Int
    public var stage: Stage
    public var kind: String
    public var costSeconds: Double
    public var executor: String?
    /// The progress that includes this chunk.
    public var progress: ProgressSnapshot
    /// The items the chunk skipped.
    public var skipped: [ItemFailure]

    public init(jobID: JobID, chunkIndex: Int, stage: Stage, kind: String, costSeconds: Double, executor: String?,
                progress: ProgressSnapshot, skipped: [ItemFailure] = []) {
        self.skipped = skipped
        self.jobID = jobID
        self.chunkIndex = chunkIndex
        self.stage = stage
        self.kind = kind
        self.costSeconds = costSeconds
        self.executor = executor
        self.progress = progress
    }
}

/// A change of a job's state and the fields that go with it.
public struct StateChange: Sendable {
    public var state: JobState
    public var failure: FailureCategory?
    public var rejection: RejectionReason?
    public var message: String?
    /// The progress to store with the change, if it changed.
    public var progress: ProgressSnapshot?
    /// The process now owning the job, if it changed.
    public var ownerPID: Int32?
    /// Clears a pending cancel request.
    public var clearsCancel: Bool

    public init(state: JobState, failure: FailureCategory? = nil, rejection: RejectionReason? = nil,
                message: String? = nil, progress: ProgressSnapshot? = nil, ownerPID: Int32? = nil,
                clearsCancel: Bool = false) {
        self.state = state
        self.failure = failure
        self.rejection = rejection
        self.message = message
        self.progress = progress
        self.ownerPID = ownerPID
        self.clearsCancel = clearsCancel
    }
}
