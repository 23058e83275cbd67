import Foundation
import TaskContract

/// A kind of chunked job the engine can run: what an embedding program implements.
///
/// The engine plans a job once, when it is submitted, and stores the plan; it then runs the
/// chunks (each one idempotent, writing through ``Workspace/commit(_:write:)``), checkpoints
/// after each, and finally asks the kind to assemble and validate the result, which the engine
/// publishes with one atomic rename.
///
/// ## How a kind states its costs
///
/// The bar and the ETA come from what the work is expected to cost. A kind states, when it
/// plans, how much work each chunk is (``PlannedChunk/work``) and how much its finalisation is
/// (``JobPlan/finalizeWork``), each in a unit of its own choosing per stage: pixel-frames for
/// video, megapixels for photos, bytes for packaging, or simply 1 per chunk when chunks are alike.
/// The engine learns seconds per unit of work for each stage from the chunks it runs (and keeps
/// what it learned for the kind's next job on this machine); before anything was measured it
/// uses ``defaultCosts``. Finalisation is costed in the ``Stage/package`` stage: give it work in
/// that stage's unit, and a default for it, when it is long. Without a default it is expected to
/// be quick on the kind's first job (the bar reaches its cap with the last chunk and waits there
/// while it runs), and costs what it was measured to take on the jobs after.
///
/// ## How a job ends
///
/// The engine ends the job, and completes its task, from what the kind's methods return or throw;
/// a kind never completes the task itself. When ``finalize(_:chunks:in:)`` returns, the result is
/// published and the job is `completed`. ``JobStopped`` (from ``JobContext/checkStop()``), or any
/// error thrown while a stop is asked for, ends it `paused`, to be resumed from its last
/// checkpoint. An ``ItemFailure`` from a chunk records that item as bad and lets the other chunks
/// run; the job then fails with all of them. Any other error fails the job, with the
/// ``CategorizedError/category`` the error gives (`internal` for errors that give none).
public protocol JobKind: Sendable {
    /// The job's settings, stored as JSON so that a resumed job runs with the same ones.
    associatedtype Spec: Codable & Sendable

    /// The kind's name, unique among the kinds registered on one scheduler: recorded with each
    /// job (``JobRecord/kind``) and naming what the engine learns of the kind's costs. Which
    /// tasks are jobs of this kind is said by the permitted identifier it is registered under
    /// (``JobScheduler/register(_:permitted:)``), never by this name.
    var name: String { get }

    /// Whether the engine writes the committed count into the task's subtitle at each checkpoint
    /// (`<stage> <done>/<total>`, for example `encode 5/8`). `false`, the default: the subtitle
    /// stays what the request and the kind (through ``JobContext/task``) set.
    var showsCountsInSubtitle: Bool { get }

    /// Seconds one unit of work of each stage is expected to take before anything was measured
    /// (stages without one: 1 s).
    var defaultCosts: [Stage: Double] { get }

    /// The most chunks of one job of this kind that may run at once whatever the machine offers
    /// (`nil`, the default: as many as the running process chooses). A property of the kind's
    /// work, never of the machine: for chunks that must run one after another, say 1.
    var maxChunksAtOnce: Int? { get }

    /// What makes two submissions the same work, in the kind's own terms: typically the inputs
    /// (with their size and modification time, so that a changed input is new work), the settings
    /// that shape the result, and the destination. Nothing about the machine belongs here.
    ///
    /// The engine compares identities, encoded as JSON with sorted keys, to find an unfinished job
    /// doing the same work instead of starting a second one. The default is the whole spec.
    /// - Throws: when the identity cannot be made (the submission is then rejected as invalid).
    func workIdentity(of spec: Spec) throws -> any Encodable

    /// Plans the work: the destination and the chunks, fixed from now on.
    ///
    /// A plan is a function of the settings and the inputs only, never of the machine that plans
    /// it (its CPUs, memory or GPU): any process, on any machine, that plans the same job gets the
    /// same chunks. How many chunks run at once is the running process's choice
    /// (``JobScheduler/init(store:lockDirectory:probe:maxConcurrentJobs:chunksAtOnce:queuePollInterval:cancelPollInterval:hostCondition:workspacePrefix:)``).
    /// - Throws: an error conforming to ``CategorizedError`` with `.invalidInput` for bad input;
    ///   the submission is then rejected and nothing is written.
    func plan(_ spec: Spec) throws -> JobPlan

    /// Does one chunk. Writes its output into the workspace through
    /// ``Workspace/commit(_:write:)`` so that a half-written file never counts; replaying a chunk
    /// must give the same result. Long chunks call ``JobContext/checkStop()`` now and then.
    /// - Returns: which path did the work (for example `cpu`), recorded with the chunk.
    func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String?

    /// Assembles the result from the chunks' outputs in the workspace, validates it, and returns
    /// where it lies in the workspace. The engine then renames it onto the destination.
    /// - Parameter chunks: the plans of every chunk, read from the store as they are asked for.
    func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL
}

extension JobKind {
    public var defaultCosts: [Stage: Double] { [:] }

    public var maxChunksAtOnce: Int? { nil }

    public var showsCountsInSubtitle: Bool { false }

    public func workIdentity(of spec: Spec) throws -> any Encodable { spec }
}

/// The fixed plan of one job.
public struct JobPlan: Sendable {
    /// Where the result will be published.
    public var destination: URL
    /// The chunks, in order.
    public var chunks: [PlannedChunk]
    /// Whether an existing destination may be replaced.
    public var overwrite: Bool
    /// How much work ``JobKind/finalize(_:chunks:in:)`` is, in the ``Stage/package`` stage's unit.
    public var finalizeWork: Double

    public init(destination: URL, chunks: [PlannedChunk], overwrite: Bool = false, finalizeWork: Double = 1) {
        self.destination = destination
        self.chunks = chunks
        self.overwrite = overwrite
        self.finalizeWork = PlannedChunk.validWork(finalizeWork)
    }
}

/// One bounded, recoverable piece of a job.
public struct PlannedChunk: Sendable, Equatable, Codable {
    /// A name unique within the job, used for its output.
    public var key: String
    /// The stage its cost counts towards.
    public var stage: Stage
    /// The kind's own description of the chunk (for example a time range), as JSON.
    public var detail: Data?
    /// How much work the chunk is, in its stage's unit (see "How a kind states its costs" in
    /// ``JobKind``); 1 when every chunk of the stage is alike.
    public var work: Double

    /// - Parameter work: a positive, finite amount; anything else counts as 1.
    public init(key: String, stage: Stage, detail: Data? = nil, work: Double = 1) {
        self.key = key
        self.stage = stage
        self.detail = detail
        self.work = Self.validWork(work)
    }

    private enum CodingKeys: String, CodingKey { case key, stage, detail, work }

    /// Decodes a chunk; one planned before chunks stated their work is 1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(key: try container.decode(String.self, forKey: .key),
                  stage: try container.decode(Stage.self, forKey: .stage),
                  detail: try container.decodeIfPresent(Data.self, forKey: .detail),
                  work: try container.decodeIfPresent(Double.self, forKey: .work) ?? 1)
    }

    /// `work` when it is a positive, finite amount, else 1.
    static func validWork(_ work: Double) -> Double {
        work.isFinite && work > 0 ? work : 1
    }
}
