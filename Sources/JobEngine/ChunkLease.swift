/// A chunk a worker holds under a lease: the worker may run it, and may commit it only while the
/// chunk's fencing epoch is still this one.
///
/// Every claim of a chunk gives it a new, larger epoch, so a worker whose lease expired and was
/// claimed by another (a rescue) can neither renew nor commit: its epoch is stale.
public struct ChunkLease: Sendable, Equatable {
    /// The package stage's index among its job's chunks: it is leased like a chunk, once every
    /// other chunk of the job is done, and never listed by ``JobStore/chunks(of:)``.
    public static let packageIndex = -1

    /// What the package stage is, as a chunk.
    public static let packageChunk = PlannedChunk(key: "package", stage: .package)

    /// The chunk's job.
    public let jobID: JobID
    /// The chunk's position in its job.
    public let chunkIndex: Int
    /// What the chunk is.
    public let plan: PlannedChunk
    /// The fencing epoch this claim gave the chunk.
    public let epoch: Int64
    /// How many earlier leases of this chunk expired before it was done.
    public let attempt: Int
    /// The worker holding the lease.
    public let worker: String
    /// How long the lease lasts from its claim or last renewal, by the database's clock.
    public let duration: Duration

    /// The name the chunk's output gets under this lease, `<key>.<epoch>`: a stale writer never
    /// writes over the output of a later claim.
    public var outputName: String { "\(plan.key).\(epoch)" }

    /// The memberwise lease, as a store's claim makes it.
    public init(jobID: JobID, chunkIndex: Int, plan: PlannedChunk, epoch: Int64, attempt: Int, worker: String,
                duration: Duration) {
        self.jobID = jobID
        self.chunkIndex = chunkIndex
        self.plan = plan
        self.epoch = epoch
        self.attempt = attempt
        self.worker = worker
        self.duration = duration
    }
}

/// What renewing a lease found.
public enum LeaseRenewal: Sendable, Equatable {
    /// The lease runs for another ``ChunkLease/duration``; whether the job was asked to stop.
    case renewed(cancelRequested: Bool)
    /// The lease ended (it expired, or another worker claimed the chunk): stop the chunk and
    /// discard its output.
    case lost
}

/// What committing a chunk under a lease did.
public enum LeaseCommit: Sendable, Equatable {
    /// The chunk is done, its output is ``ChunkLease/outputName``, and the job's progress moved.
    case committed
    /// The lease's epoch is no longer the chunk's (or the chunk was done already): nothing
    /// changed but a `commit_refused` journal entry. Delete the output.
    case refused
}
