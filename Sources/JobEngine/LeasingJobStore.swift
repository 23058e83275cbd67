/// A ``JobStore`` whose jobs' chunks many worker processes share under leases (DESIGN.md §10):
/// the PostgreSQL store across machines, the SQLite store among the processes of one machine.
///
/// A claim gives a chunk a lease timed by the store's one clock (the database's) and a fencing
/// epoch that grows with every claim of that chunk; the holder renews the lease every third of its
/// length, and may commit the chunk only while the chunk's epoch is still its lease's. Whoever
/// claims next rescues chunks whose lease expired; there is no leader. A job's package stage
/// (``ChunkLease/packageIndex``) is leased like a chunk, once every other chunk of the job is done,
/// and its commit completes the job.
///
/// A store that runs a call again after losing its reply (the PostgreSQL store, whose connection
/// may die between the server's COMMIT and its answer) answers what the first run did: a claim
/// returns the lease it took, not a second chunk; a commit, failure, job's end or release that
/// applied says so, not that the lease was lost.
public protocol LeasingJobStore: JobStore {
    /// Claims the next chunk in claim order (``ClaimOrder``: the longest expected first, ties in
    /// index order) that nobody holds, or whose lease expired (a rescue), of the oldest queued or
    /// running job (or of `job` only): gives it a new epoch and a lease of `lease` from the
    /// store's now, and journals `claimed` (with `rescued_from` for a rescue); a queued job is
    /// running from then on. The package stage is
    /// claimed after the job's other chunks, once they are all done (or failed with bad items). Chunks of a job that requires
    /// a GPU go only to a worker that has one.
    /// - Parameters:
    ///   - worker: who claims (host and process, for the journal).
    ///   - lease: how long the lease lasts unless renewed.
    ///   - job: only this job's chunks, when given.
    ///   - hasGPU: whether the worker selected a GPU that passed its probe.
    /// - Returns: the lease, or `nil` when no chunk is free.
    func claimChunk(worker: String, lease: Duration, job: JobID?, hasGPU: Bool) throws -> ChunkLease?

    /// Extends the lease by its duration from the store's now, if it is still held: same epoch,
    /// same worker, not expired.
    /// - Returns: `.renewed` with whether the job was asked to stop, or `.lost`.
    func renew(_ lease: ChunkLease) throws -> LeaseRenewal

    /// Records the chunk done under `lease`, in one transaction, only if the chunk's epoch is still
    /// the lease's: marks it done with its output (``ChunkLease/outputName``), moves the job's
    /// progress (never backwards), learns the cost and journals the checkpoint with its epoch; for
    /// the package stage, completes the job and journals `ended` instead. Otherwise journals
    /// `commit_refused` and changes nothing else. The same commit again says `.committed`.
    /// - Returns: `.committed`, or `.refused` (delete the output: it is not the chunk's).
    func commit(_ lease: ChunkLease, checkpoint: Checkpoint) throws -> LeaseCommit

    /// Commits every entry of `batch` as ``commit(_:checkpoint:)`` commits one, answering each as
    /// that would: `.committed`, `.refused` (journalled), or the error that kept it from landing;
    /// the same batch again answers `.committed` for the entries that landed. A store may land the
    /// chunks' entries together, in one transaction that waits for one flush for all of them (the
    /// PostgreSQL store); each entry is durable before its answer says `.committed`.
    /// - Returns: one answer per entry, in `batch`'s order.
    func commit(_ batch: [(lease: ChunkLease, checkpoint: Checkpoint)]) -> [Result<LeaseCommit, any Error>]

    /// Records that the chunk under `lease` failed, if `lease` still holds it, and journals
    /// `chunk_failed` with the message. ``ChunkFailure/elsewhere(_:)`` gives the chunk back with one
    /// more failure (``ChunkLease/failures``); its worker claims it again only once the lease's
    /// duration has passed, so that another worker may take it first. ``ChunkFailure/badItems(_:_:)``
    /// stores the items as failed with the chunk and settles it: no worker claims it until the job
    /// is resumed, and the package stage is claimed once every other chunk is done or settled so,
    /// to end the job failed, listing its bad items.
    /// - Returns: whether the lease still held the chunk.
    @discardableResult
    func fail(_ lease: ChunkLease, _ failure: ChunkFailure) throws -> Bool

    /// Ends the lease's job with `change` (a failure that stops the job, as it would in one
    /// process), gives the chunk back and journals `released` and `event`, all in one transaction,
    /// only if `lease` still holds the chunk: a worker whose lease another worker took over (a
    /// fenced packager) cannot end a job that worker now runs.
    /// - Returns: whether the lease still held the chunk (nothing changed when it did not).
    @discardableResult
    func endJob(_ lease: ChunkLease, _ change: StateChange, journal event: JournalEntry?) throws -> Bool

    /// Records `worker` as live now, by the store's clock (a heartbeat): a worker announces itself
    /// when it starts and every third of its lease after.
    func announce(_ worker: WorkerRecord) throws

    /// Forgets the worker named `name` (a worker ending cleanly).
    func retire(worker name: String) throws

    /// The workers whose last heartbeat is less than their lease old, by the store's clock.
    func liveWorkers() throws -> [WorkerRecord]

    /// How many of the job's done chunks each worker's lease committed, by worker name (`host:pid`);
    /// chunks done by a process that ran the whole job are not counted.
    func workerCounts(of id: JobID) throws -> [String: Int]

    /// Gives the chunk back unfinished, if `lease` still holds it, so that any worker may claim it
    /// at once without counting an attempt, and journals `released`.
    /// - Returns: whether the lease still held the chunk.
    @discardableResult
    func release(_ lease: ChunkLease) throws -> Bool

    /// Gives up remaking a lost connection from `deadline` on, for good: a reconnection in
    /// progress (which otherwise waits for the server for about 25 s) ends by then, and a call
    /// that finds its connection lost after it fails at once with the connection's error. A worker
    /// that stops (`mediajob worker`) calls this, so that it never waits out a reconnection for what
    /// the lease protocol does not need; an earlier deadline given before stands. A store that
    /// never reconnects (SQLite's, in-process) has nothing to give up.
    func stopReconnecting(at deadline: ContinuousClock.Instant)
}

extension LeasingJobStore {
    /// Nothing: this store never reconnects.
    public func stopReconnecting(at deadline: ContinuousClock.Instant) {}

    /// Commits the entries one by one, each in a transaction of its own (the SQLite store's way:
    /// one writer at a time, whose commits cost no network round trip).
    public func commit(_ batch: [(lease: ChunkLease, checkpoint: Checkpoint)]) -> [Result<LeaseCommit, any Error>] {
        batch.map { entry in Result { try commit(entry.lease, checkpoint: entry.checkpoint) } }
    }

    /// The package stage's index among its job's chunks (``ChunkLease/packageIndex``).
    public static var packageIndex: Int { ChunkLease.packageIndex }

    /// What the package stage is, as a chunk (``ChunkLease/packageChunk``).
    public static var packageChunk: PlannedChunk { ChunkLease.packageChunk }
}
