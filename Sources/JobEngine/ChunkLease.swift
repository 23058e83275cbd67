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
    /// How many earlier leases of this chunk failed because their worker could not open an input
    /// (``ChunkFailure/elsewhere(_:)``).
    public let failures: Int
    /// The worker holding the lease.
    public let worker: String
    /// How long the lease lasts from its claim or last renewal, by the database's clock.
    public let duration: Duration
    /// A random token that names this claim alone, from a store whose claims do not wait to be
    /// durable (PostgreSQL's): a claim lost in a crash of the database leaves the chunk's epoch
    /// where it was, so the next claim hands the same epoch out again, and only the token tells
    /// the two leases (and their outputs) apart. `nil` from a store whose claims are durable.
    public let token: String?
    /// Whether the job was asked to stop when the chunk was claimed, as the claim read it: the
    /// worker need not ask again before the chunk starts (a cancel asked for later is announced,
    /// or reported by the next renewal).
    public let cancelRequested: Bool
    /// The version of the job's record when the chunk was claimed, from a store that can tell
    /// (PostgreSQL's: the row's `xmin`, which every change of the record moves to a new value):
    /// a worker that read the job after an earlier claim that reported the same version may use
    /// that record again instead of reading it. `nil`: read the job.
    public let jobVersion: Int64?

    /// How many leases of one chunk may fail on workers that could not open an input before its
    /// items count as bad, as they would in one process.
    public static let unreachableInputAttempts = 3

    /// The name the chunk's output gets under this lease, `<key>.<epoch>` (`<key>.<epoch>-<token>`
    /// with a token): a stale writer never writes over the output of a later claim.
    public var outputName: String { "\(plan.key).\(epoch)" + (token.map { "-\($0)" } ?? "") }

    /// A new claim token: 16 hexadecimal digits, 64 random bits.
    public static func makeToken() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The `released` journal entry a store appends when it gives the chunk back under this lease:
    /// its chunk, epoch and worker.
    package var releasedEntry: JournalEntry {
        JournalEntry(jobID: jobID, event: .released, detail: ["chunk": String(chunkIndex), "epoch": String(epoch), "worker": worker])
    }

    /// The memberwise lease, as a store's claim makes it.
    public init(jobID: JobID, chunkIndex: Int, plan: PlannedChunk, epoch: Int64, attempt: Int, failures: Int = 0,
                worker: String, duration: Duration, token: String? = nil, cancelRequested: Bool = false,
                jobVersion: Int64? = nil) {
        self.jobID = jobID
        self.chunkIndex = chunkIndex
        self.plan = plan
        self.epoch = epoch
        self.attempt = attempt
        self.failures = failures
        self.worker = worker
        self.duration = duration
        self.token = token
        self.cancelRequested = cancelRequested
        self.jobVersion = jobVersion
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

/// Why a chunk run under a lease failed, as its worker records it (``LeasingJobStore/fail(_:_:)``).
public enum ChunkFailure: Sendable, Equatable {
    /// The worker could not open an input that another machine may see (``ItemFailure/isUnreachableHere``):
    /// the chunk is given back, to be claimed again, first by another worker, counting one failure;
    /// the message names the input and the worker's host.
    case elsewhere(String)
    /// The chunk's items are bad, as they would be in one process: they are stored as failed with
    /// the chunk, which is not claimed again until the job is resumed; the message names the worker's host.
    case badItems([ItemFailure], String)

    /// The message stored with the chunk.
    public var message: String {
        switch self {
        case .elsewhere(let message), .badItems(_, let message): message
        }
    }

    /// The `chunk_failed` journal entry a store appends with the failure of `lease`'s chunk: its
    /// chunk, epoch, worker and message, and `retry` when another worker may take it.
    package func journalEntry(for lease: ChunkLease) -> JournalEntry {
        var detail = ["chunk": String(lease.chunkIndex), "epoch": String(lease.epoch), "worker": lease.worker, "message": message]
        if case .elsewhere = self { detail["retry"] = "true" }
        return JournalEntry(jobID: lease.jobID, event: .chunkFailed, detail: detail)
    }
}
