import Foundation
import TaskContract

/// A job as the store keeps it.
public struct JobRecord: Sendable, Equatable {
    public var id: JobID
    /// The name of the job's kind (``JobKind/name``), as registered when it was submitted; empty
    /// for a submission rejected before any kind took it.
    public var kind: String
    /// The request the job was submitted with.
    public var request: TaskRequest
    /// The job kind's own settings, as JSON.
    public var spec: Data
    /// Equal for submissions of the same work: the kind's name and its ``JobKind/workIdentity(of:)``.
    public var workKey: String
    /// Where the finished result goes.
    public var destination: String
    /// The job's private folder, on the destination's file system.
    public var workspace: String
    /// Whether an existing destination may be replaced.
    public var overwrite: Bool
    public var state: JobState
    /// Why it failed, when it did.
    public var failure: FailureCategory?
    /// Why it was rejected, when it was.
    public var rejection: RejectionReason?
    /// What happened and what to do, for the person; no internal detail.
    public var message: String?
    /// The committed progress.
    public var progress: ProgressSnapshot
    /// Position in the first-in, first-out queue.
    public var queueSequence: Int64
    public var createdAt: Date
    public var updatedAt: Date
    /// The process that last ran or queued the job; `nil` for a job submitted for workers
    /// (``isLeftToWorkers``).
    public var ownerPID: Int32?

    /// Whether the job was submitted for worker processes (`--detach`) and no process has taken it
    /// since: no process owns it, so it is never taken for ``JobState/interrupted``, and only such
    /// jobs are claimed by the workers sharing an SQLite store (a process owns the others).
    public var isLeftToWorkers: Bool { ownerPID == nil }

    public init(
        id: JobID, kind: String, request: TaskRequest, spec: Data, workKey: String, destination: String,
        workspace: String, overwrite: Bool, state: JobState,
        progress: ProgressSnapshot, createdAt: Date = Date()
    ) {
        self.id = id
        self.kind = kind
        self.request = request
        self.spec = spec
        self.workKey = workKey
        self.destination = destination
        self.workspace = workspace
        self.overwrite = overwrite
        self.state = state
        self.progress = progress
        self.queueSequence = 0
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// The outcome the stored state stands for, when the job has ended.
    public var outcome: TaskOutcome? {
        switch state {
        case .completed: .completed
        case .paused: .paused
        case .failed: .failed(failure ?? .internal)
        case .rejected: .rejected(rejection ?? .invalidInput)
        case .discarded: .discarded
        case .queued, .running, .interrupted: nil
        }
    }
}

/// One planned chunk of a job, as stored.
public struct ChunkRecord: Sendable, Equatable {
    public var index: Int
    public var plan: PlannedChunk
    public var isDone: Bool
    /// Measured wall-clock seconds, once done.
    public var costSeconds: Double?
    /// Which path did the work (for example `cpu` or `gpu`), once done.
    public var executor: String?
    /// The folder of the workspace's ``Workspace/leasesFolder`` holding the chunk's outputs, when
    /// it was committed under a lease (`<key>.<epoch>`); `nil` when its outputs lie in the
    /// workspace itself (a chunk run by the process that runs the whole job).
    public var output: String?

    public init(index: Int, plan: PlannedChunk, isDone: Bool = false, costSeconds: Double? = nil, executor: String? = nil,
                output: String? = nil) {
        self.index = index
        self.plan = plan
        self.isDone = isDone
        self.costSeconds = costSeconds
        self.executor = executor
        self.output = output
    }
}
