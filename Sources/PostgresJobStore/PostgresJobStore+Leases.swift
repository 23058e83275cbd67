import Foundation
import JobEngine
import Postgres
import TaskContract

/// The lease protocol that lets many workers share a job's chunks (DESIGN.md §10): claim with
/// `FOR UPDATE SKIP LOCKED`, leases timed by the database's clock, a fencing epoch per claim,
/// renewal that reports a cancel, commit only under the current epoch, and rescue of expired
/// leases by whoever claims next (no leader).
extension PostgresJobStore: LeasingJobStore {
    /// Claims the next chunk nobody holds, or whose lease expired (a rescue), of the oldest
    /// queued or running job (or of `job` only): gives it a new epoch and a lease of `lease` from
    /// the database's now, and journals `claimed`. Chunks other workers are claiming at this very
    /// moment are skipped, never waited for. A job's package stage (``packageIndex``) is claimed
    /// like a chunk, after its other chunks, once they are all done.
    /// Chunks of a job that requires a GPU (`--gpu on`) go only to a worker that has one; other jobs'
    /// chunks go to any worker.
    /// - Parameters:
    ///   - worker: who claims (host and process, for the journal and for `status`).
    ///   - lease: how long the lease lasts unless renewed.
    ///   - job: only this job's chunks, when given.
    ///   - hasGPU: whether the worker selected a GPU that passed its probe.
    /// - Returns: the lease, or `nil` when no chunk is free.
    public func claimChunk(worker: String, lease: Duration, job: JobID? = nil, hasGPU: Bool = false) throws -> ChunkLease? {
        try transaction { connection in
            guard let row = try connection.query(Statements.claimChunk, job?.rawValue, worker, lease.seconds, hasGPU).first else {
                return nil
            }
            let id: String = try row["job_id"]
            let claimed = ChunkLease(
                jobID: JobID(rawValue: id), chunkIndex: try row["idx"],
                plan: try PostgresJobRow.decode(PlannedChunk.self, row["plan"], column: "chunk plan", job: id),
                epoch: try row["epoch"], attempt: try row["attempt"], worker: worker, duration: lease)
            var detail = ["chunk": String(claimed.chunkIndex), "epoch": String(claimed.epoch), "worker": worker]
            if let previous: String = try row["previous_owner"] { detail["rescued_from"] = previous }
            try Self.append(JournalEntry(jobID: claimed.jobID, event: .claimed, detail: detail), on: connection)
            return claimed
        }
    }

    /// Extends the lease by its duration from the database's now, if it is still held: same
    /// epoch, same worker, not expired. Heartbeats call this every third of the lease.
    /// - Returns: `.renewed` with whether the job was asked to stop, or `.lost`.
    public func renew(_ lease: ChunkLease) throws -> LeaseRenewal {
        try transaction { connection in
            let row = try connection.query(Statements.renewLease, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                           lease.worker, lease.duration.seconds).first
            guard let row else { return .lost }
            return .renewed(cancelRequested: try row["cancel_requested"])
        }
    }

    /// Records the chunk done under `lease`, in one transaction, only if the chunk's epoch is
    /// still the lease's: marks it done with its output (``ChunkLease/outputName``), cost and
    /// executor, moves the job's progress (never backwards: a snapshot behind the stored one is
    /// not stored), learns the cost, and journals the checkpoint with its epoch; for the package
    /// stage, completes the job with `checkpoint`'s progress and journals `ended` instead.
    /// Otherwise journals `commit_refused` and changes nothing else. Committing again under the
    /// same lease (a retry after a lost acknowledgement) changes nothing and says `.committed`.
    /// - Parameters:
    ///   - lease: the lease the chunk ran under.
    ///   - checkpoint: the chunk's cost, executor and the progress that includes it.
    /// - Returns: `.committed`, or `.refused` (delete the output: it is not the chunk's).
    public func commit(_ lease: ChunkLease, checkpoint: Checkpoint) throws -> LeaseCommit {
        try transaction { connection in
            let firstDone = try Self.lockJobCountingDone(lease.jobID, on: connection) == 0
            let marked = try connection.query(
                Statements.commitChunk, lease.jobID.rawValue, lease.chunkIndex, lease.epoch, lease.worker,
                checkpoint.costSeconds, checkpoint.executor, Date().timeIntervalSince1970, lease.outputName)
            let detail = ["epoch": String(lease.epoch), "worker": lease.worker, "output": lease.outputName]
            guard marked.rowsAffected == 1 else {
                // The same commit, already applied: its acknowledgement was lost with the connection
                // and the call ran again. Refusing it would make the worker delete a committed output.
                let current = try connection.query(Statements.chunkOutput, lease.jobID.rawValue, lease.chunkIndex).first
                if let current, try current["done"] as Bool, try current["output"] as String? == lease.outputName {
                    return .committed
                }
                try Self.append(JournalEntry(jobID: lease.jobID, event: .commitRefused,
                                             detail: detail.merging(["chunk": String(lease.chunkIndex)]) { $1 }),
                                on: connection)
                return .refused
            }
            guard lease.chunkIndex != Self.packageIndex else {
                try Self.apply(StateChange(state: .completed, progress: checkpoint.progress, clearsCancel: true), to: lease.jobID,
                               journal: JournalEntry(jobID: lease.jobID, event: .ended,
                                                     detail: detail.merging(["outcome": "completed"]) { $1 }),
                               on: connection)
                return .committed
            }
            let stored = try connection.query(Statements.job, lease.jobID.rawValue).map(PostgresJobRow.record).first?.progress
            let progress = stored.map { $0.fraction > checkpoint.progress.fraction ? $0 : checkpoint.progress }
                ?? checkpoint.progress
            try Self.record(checkpoint, progress: progress, firstDone: firstDone, detail: detail, on: connection)
            return .committed
        }
    }

    /// Gives the chunk back unfinished, if `lease` still holds it, so that any worker may claim it
    /// at once (a stopping worker's chunks), and journals `released`.
    /// - Returns: whether the lease still held the chunk.
    @discardableResult
    public func release(_ lease: ChunkLease) throws -> Bool {
        try transaction { connection in
            let released = try connection.query(Statements.releaseLease, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                                lease.worker).rowsAffected == 1
            if released {
                try Self.append(JournalEntry(jobID: lease.jobID, event: .released, detail: [
                    "chunk": String(lease.chunkIndex), "epoch": String(lease.epoch), "worker": lease.worker,
                ]), on: connection)
            }
            return released
        }
    }
}

extension PostgresJobStore.Statements {
    /// `TaskResources.gpu`'s bit in a stored request's `requiredResources`.
    private static let gpu = TaskResources.gpu.rawValue
    static let claimChunk = PreparedStatement("mediajob_claim_chunk", """
        WITH next AS (
            SELECT c.job_id, c.idx, c.lease_owner AS previous_owner
            FROM chunks c JOIN jobs j ON j.id = c.job_id
            WHERE j.state IN ('queued', 'running') AND NOT c.done
                AND (c.lease_owner IS NULL OR c.lease_expires_at <= now())
                AND ($1::text IS NULL OR c.job_id = $1::text)
                AND ($4::boolean OR (convert_from(j.request, 'UTF8')::jsonb ->> 'requiredResources')::int & \(gpu) = 0)
                AND (c.idx >= 0 OR NOT EXISTS (SELECT 1 FROM chunks o WHERE o.job_id = c.job_id AND o.idx >= 0 AND NOT o.done))
            ORDER BY j.queue_seq, c.idx < 0, c.idx
            LIMIT 1
            FOR UPDATE OF c SKIP LOCKED
        )
        UPDATE chunks c SET epoch = c.epoch + 1,
            attempt = c.attempt + CASE WHEN next.previous_owner IS NULL THEN 0 ELSE 1 END,
            lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3)
        FROM next WHERE c.job_id = next.job_id AND c.idx = next.idx
        RETURNING c.job_id, c.idx, c.plan, c.epoch, c.attempt, next.previous_owner
        """)
    static let renewLease = PreparedStatement("mediajob_renew_lease", """
        UPDATE chunks SET lease_expires_at = now() + make_interval(secs => $5)
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND NOT done AND lease_expires_at > now()
        RETURNING EXISTS (SELECT 1 FROM cancel_requests r WHERE r.job_id = $1) AS cancel_requested
        """)
    static let commitChunk = PreparedStatement("mediajob_commit_chunk", """
        UPDATE chunks SET done = true, cost_s = $5, executor = $6, done_at = $7, output = $8,
            lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND NOT done
        """)
    static let chunkOutput = PreparedStatement(
        "mediajob_chunk_output", "SELECT done, output FROM chunks WHERE job_id = $1 AND idx = $2")
    static let releaseLease = PreparedStatement("mediajob_release_lease", """
        UPDATE chunks SET lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND NOT done
        """)
}
