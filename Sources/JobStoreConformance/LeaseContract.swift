import Foundation
import JobEngine
import TaskContract
import Testing

/// One clause of the lease protocol (``LeasingJobStore``), checked against any store that shares
/// chunks among workers: the conformance suite the SQLite and PostgreSQL stores both run.
///
/// ```swift
/// @Test(arguments: LeaseContract.all)
/// func keepsTheLeaseContract(_ clause: LeaseContract) throws {
///     try withStorePath { path in try clause.check { try SQLiteJobStore(path: path) } }
/// }
/// ```
///
/// `open` is called once per worker a clause plays; every store it returns must see the same,
/// initially empty, data, as worker processes sharing one store do.
public struct LeaseContract: Sendable, CustomTestStringConvertible {
    /// What the clause requires, as a sentence.
    public let name: String
    private let body: @Sendable (_ open: () throws -> any LeasingJobStore) throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (_ open: () throws -> any LeasingJobStore) throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Checks the clause, recording failed expectations with Swift Testing.
    /// - Parameter open: opens a store over the clause's own, initially empty, data.
    /// - Throws: what the store throws, `#require` failures, and ``LeaseWaitTimedOut``.
    public func check(_ open: () throws -> any LeasingJobStore) throws {
        try body(open)
    }

    public var testDescription: String { name }

    /// Every clause.
    public static let all: [LeaseContract] = claims + batches + rescues + packages + failures + workers
}

/// A wait for a lease to run out by the store's clock passed its deadline.
public struct LeaseWaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String

    public var description: String { "gave up after 30 s waiting until \(what)" }
}

extension LeasingJobStore {
    /// Claims as `worker` with a lease of `lease` (a minute unless given), any job, no GPU.
    func claim(_ worker: String, lease: Duration = .seconds(60), hasGPU: Bool = false) throws -> ChunkLease? {
        try claimChunk(worker: worker, lease: lease, job: nil, hasGPU: hasGPU)
    }

    /// Claims as `worker` once a lease has run out by the store's own clock (a rescue), trying
    /// every 10 ms for at most 30 s: the only way to see the store's clock is to ask it.
    /// - Throws: ``LeaseWaitTimedOut`` naming `what`.
    func claimOnceExpired(_ worker: String, _ what: String) throws -> ChunkLease {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let lease = try claim(worker) { return lease }
            guard ContinuousClock.now < deadline else { throw LeaseWaitTimedOut(what: what) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

/// A job as `--detach` submits it for workers: no process owns it (``JobRecord/isLeftToWorkers``).
public func makeDetachedJob(state: JobState = .queued, unitsTotal: Int = 3) throws -> JobRecord {
    var job = try makeJob(state: state, unitsTotal: unitsTotal)
    job.ownerPID = nil
    return job
}

/// The checkpoint a worker commits for `lease`'s chunk of `job`, with progress `snapshot`.
func checkpoint(_ lease: ChunkLease, of job: JobRecord, _ snapshot: ProgressSnapshot) -> Checkpoint {
    Checkpoint(jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
               executor: "cpu", progress: snapshot)
}

/// Each of `count` chunks' keys (`c0`, `c1`, …) and the package stage's, for ``LeaseJournalCheck``.
func leaseKeys(_ count: Int) -> [Int: String] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, "c\($0)") } + [(ChunkLease.packageIndex, "package")])
}
