import Foundation
import JobEngine
import Postgres
import TaskContract

/// The lease protocol that lets many workers share a job's chunks (DESIGN.md §10): claim with
/// `FOR UPDATE SKIP LOCKED`, leases timed by the database's clock, a fencing epoch per claim,
/// renewal that reports a cancel, commit only under the current epoch, and rescue of expired
/// leases by whoever claims next (no leader).
extension PostgresJobStore: LeasingJobStore {
    /// Claims the next chunk in claim order (``ClaimOrder``: the longest expected first) that nobody
    /// holds, or whose lease expired (a rescue), of the oldest queued or running job (or of `job`
    /// only): gives it a new epoch and a lease of `lease` from
    /// the database's now, and journals `claimed`. Chunks other workers are claiming at this very
    /// moment are skipped, never waited for. A job's package stage (``packageIndex``) is claimed
    /// like a chunk, after its other chunks, once they are all done.
    /// Chunks of a job that requires a GPU (`--gpu on`) go only to a worker that has one; other jobs'
    /// chunks go to any worker.
    ///
    /// One statement, so one round trip: the claim and its journal entry commit together, without
    /// waiting for the WAL flush (the claimer waits for no disk). The lease also says whether the
    /// job was asked to stop and which version of the job's record is current
    /// (``ChunkLease/cancelRequested``, ``ChunkLease/jobVersion``), so that the worker need not
    /// read either before the chunk starts. A claim lost in a crash of the
    /// server leaves the chunk as it was, to be claimed again under the same epoch; the claim's
    /// random token (``ChunkLease/token``), which every later statement of the lease must match and
    /// which names its output, keeps the two claims apart: the first one's renewal finds its lease
    /// lost, its commit is refused, and its output is not the second one's.
    ///
    /// The token is made once for the call: a claim run again after its reply was lost (it applied,
    /// and the connection died before its answer) first looks for the chunk it holds under that
    /// token, still leased, and returns that lease rather than taking a second chunk (a second round
    /// trip, on that retry only). No worker ever got the first run's lease, so the token still names
    /// one lease.
    /// - Parameters:
    ///   - worker: who claims (host and process, for the journal and for `status`).
    ///   - lease: how long the lease lasts unless renewed.
    ///   - job: only this job's chunks, when given.
    ///   - hasGPU: whether the worker selected a GPU that passed its probe.
    /// - Returns: the lease, or `nil` when no chunk is free.
    public func claimChunk(worker: String, lease: Duration, job: JobID? = nil, hasGPU: Bool = false) throws -> ChunkLease? {
        let token = ChunkLease.makeToken()
        var ranBefore = false
        return try statement { connection in
            defer { ranBefore = true }
            let held = try ranBefore ? connection.query(Statements.claimedChunk, token, worker).first : nil
            guard let row = try held ?? connection.query(Statements.claimChunk, job?.rawValue, worker, lease.seconds, hasGPU,
                                                         Date().timeIntervalSince1970, token).first else {
                return nil
            }
            let id: String = try row["job_id"]
            return ChunkLease(
                jobID: JobID(rawValue: id), chunkIndex: try row["idx"],
                plan: try PostgresJobRow.decode(PlannedChunk.self, row["plan"], column: "chunk plan", job: id),
                epoch: try row["epoch"], attempt: try row["attempt"], failures: try row["failures"], worker: worker,
                duration: lease, token: token, cancelRequested: try row["cancel_requested"], jobVersion: try row["job_version"])
        }
    }

    /// Extends the lease by its duration from the database's now, if it is still held: same
    /// epoch, same worker, not expired. Heartbeats call this every third of the lease.
    ///
    /// The renewal does not wait for the WAL flush: a renewal lost in a server crash leaves the
    /// earlier expiry, so the lease ends sooner than its holder thinks and another worker may claim
    /// the chunk under a new epoch; the holder then finds its lease lost, or has its commit refused.
    /// Work may be done twice; no result is wrong.
    /// - Returns: `.renewed` with whether the job was asked to stop, or `.lost`.
    public func renew(_ lease: ChunkLease) throws -> LeaseRenewal {
        try transaction { connection in
            try connection.query(Statements.withoutWaitingForFlush)
            let row = try connection.query(Statements.renewLease, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                           lease.worker, lease.duration.seconds, lease.token).first
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
    ///
    /// A chunk's commit is one statement, so one round trip, and it waits for the WAL flush: the
    /// bar moves only once the chunk is durable.
    /// - Parameters:
    ///   - lease: the lease the chunk ran under.
    ///   - checkpoint: the chunk's cost, executor and the progress that includes it.
    /// - Returns: `.committed`, or `.refused` (delete the output: it is not the chunk's).
    public func commit(_ lease: ChunkLease, checkpoint: Checkpoint) throws -> LeaseCommit {
        if lease.chunkIndex == Self.packageIndex {
            return try commitPackage(lease, checkpoint: checkpoint)
        }
        let marked = try statement { connection in try connection.pipeline([Self.markDone(lease, checkpoint)]) }
        return marked.first?.isEmpty == false ? .committed : try refuse(lease)
    }

    /// Commits the batch's chunks in one transaction and one round trip (the statements sent
    /// together, libpq's pipeline mode), so that one WAL flush makes them all durable (a worker's
    /// committer hands its slots' commits over this way), and each package stage on its own path
    /// (``commit(_:checkpoint:)``). Each entry is answered as ``commit(_:checkpoint:)`` answers it;
    /// a refused entry leaves the others to land, and is journalled once they landed, in a
    /// transaction of its own, as a commit alone is. When the transaction fails, every chunk of it
    /// is answered with that error and none landed. Run again after its reply was lost, the
    /// transaction finds its chunks done with their outputs and says `.committed` for them.
    ///
    /// The chunks' statements run in the order of the rows they share with other workers' commits
    /// (job, then its `job_progress` shard), so that two batches take those locks in one order; a
    /// deadlock the server still finds (two batches learning costs of two stages in opposite
    /// orders) is a lost race, and the transaction runs again.
    /// - Returns: one answer per entry, in `batch`'s order.
    public func commit(_ batch: [(lease: ChunkLease, checkpoint: Checkpoint)]) -> [Result<LeaseCommit, any Error>] {
        let chunks = batch.indices.filter { batch[$0].lease.chunkIndex != Self.packageIndex }
            .sorted { Self.lockOrder(of: batch[$0].lease) < Self.lockOrder(of: batch[$1].lease) }
        var answers: [Int: Result<LeaseCommit, any Error>] = [:]
        if !chunks.isEmpty {
            do {
                let marked = try statement { connection in
                    try connection.pipeline(chunks.map { try Self.markDone(batch[$0].lease, batch[$0].checkpoint) })
                }
                for (index, result) in zip(chunks, marked) {
                    answers[index] = result.isEmpty ? Result { try refuse(batch[index].lease) } : .success(.committed)
                }
            } catch {
                for index in chunks { answers[index] = .failure(error) }
            }
        }
        return batch.indices.map { index in
            answers[index] ?? Result { try commitPackage(batch[index].lease, checkpoint: batch[index].checkpoint) }
        }
    }

    /// Where a chunk's commit stands among a batch's: by job, then by its `job_progress` shard.
    private static func lockOrder(of lease: ChunkLease) -> (String, Int, Int) {
        (lease.jobID.rawValue, lease.chunkIndex % progressShards, lease.chunkIndex)
    }

    /// The statement that marks the chunk done under `lease` with everything its commit records
    /// (``Statements/commitChunkWithProgress``), with its parameters: it returns a row when the
    /// lease still held the chunk, none (and changes nothing) when it did not.
    private static func markDone(_ lease: ChunkLease, _ checkpoint: Checkpoint) throws
        -> (statement: PreparedStatement, parameters: [any PostgresEncodable]) {
        let skipped = String(decoding: try PostgresJobRow.encode(checkpoint.skipped.map { ["item": $0.item, "reason": $0.reason] }),
                             as: UTF8.self)
        return (Statements.commitChunkWithProgress, [
            lease.jobID.rawValue, lease.chunkIndex, lease.epoch, lease.worker,
            checkpoint.costSeconds, checkpoint.executor, Date().timeIntervalSince1970, lease.outputName,
            try PostgresJobRow.encode(checkpoint.progress), checkpoint.progress.fraction, checkpoint.kind,
            checkpoint.stage.rawValue, checkpoint.progress.costs.estimate(for: checkpoint.stage), skipped,
            BadItem.Outcome.skipped.rawValue, lease.token,
        ])
    }

    /// The package stage's commit: marks it done and completes the job, in one transaction.
    private func commitPackage(_ lease: ChunkLease, checkpoint: Checkpoint) throws -> LeaseCommit {
        let committed = try transaction { connection in
            let marked = try connection.query(
                Statements.commitChunk, lease.jobID.rawValue, lease.chunkIndex, lease.epoch, lease.worker,
                checkpoint.costSeconds, checkpoint.executor, Date().timeIntervalSince1970, lease.outputName, lease.token)
            guard marked.rowsAffected == 1 else { return false }
            try Self.apply(StateChange(state: .completed, progress: checkpoint.progress, clearsCancel: true), to: lease.jobID,
                           journal: JournalEntry(jobID: lease.jobID, event: .ended, detail: [
                               "epoch": String(lease.epoch), "worker": lease.worker, "output": lease.outputName,
                               "outcome": "completed",
                           ]),
                           on: connection)
            return true
        }
        return committed ? .committed : try refuse(lease)
    }

    /// What a commit that marked nothing says: `.committed` when the chunk is done with this lease's
    /// output already (the same commit, applied, whose acknowledgement was lost with the connection:
    /// refusing it would make the worker delete a committed output), else `.refused`, journalled.
    private func refuse(_ lease: ChunkLease) throws -> LeaseCommit {
        let call = UUID().uuidString
        return try transaction { connection in try refusal(of: lease, key: call, on: connection) }
    }

    /// What a commit that marked nothing says (``refuse(_:)``), inside the caller's transaction. The
    /// `commit_refused` entry is journalled under `key`, made once for the call, so a call run again
    /// after its reply was lost journals it once (``append(_:once:on:)``); every call refused is journalled.
    private func refusal(of lease: ChunkLease, key: String, on connection: Connection) throws -> LeaseCommit {
        let current = try connection.query(Statements.chunkOutput, lease.jobID.rawValue, lease.chunkIndex).first
        if let current, try current["done"] as Bool, try current["output"] as String? == lease.outputName {
            return .committed
        }
        try append(JournalEntry(jobID: lease.jobID, event: .commitRefused, detail: [
            "chunk": String(lease.chunkIndex), "epoch": String(lease.epoch), "worker": lease.worker,
            "output": lease.outputName,
        ]), once: key, on: connection)
        return .refused
    }

    /// Records that the chunk under `lease` failed, if `lease` still holds it, in one transaction
    /// with its `chunk_failed` journal entry (and, for bad items, the items): see
    /// ``LeasingJobStore/fail(_:_:)``.
    /// - Returns: whether the lease still held the chunk; `true` also when the call runs again after
    ///   its reply was lost and finds that its earlier run applied (``applyingOnceWhileHeld(_:)``).
    @discardableResult
    public func fail(_ lease: ChunkLease, _ failure: ChunkFailure) throws -> Bool {
        try applyingOnceWhileHeld { connection in
            switch failure {
            case .elsewhere(let message):
                guard try connection.query(Statements.failChunkForElsewhere, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                           lease.worker, message, lease.duration.seconds, lease.token).rowsAffected == 1 else {
                    return false
                }
            case .badItems(let items, let message):
                guard try connection.query(Statements.settleFailedChunk, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                           lease.worker, message, lease.token).rowsAffected == 1 else { return false }
                try Self.replaceBadItems(items, outcome: .failed, of: lease.jobID, chunk: lease.chunkIndex, on: connection)
            }
            try Self.append(failure.journalEntry(for: lease), on: connection)
            return true
        }
    }

    /// Records `worker` as live now, by the database's clock. Like a renewal, a heartbeat does not
    /// wait for the WAL flush.
    public func announce(_ worker: WorkerRecord) throws {
        try transaction { connection in
            try connection.query(Statements.withoutWaitingForFlush)
            try connection.query(Statements.announceWorker, worker.name, worker.host, Int(worker.pid), worker.hasGPU, worker.slots,
                                 worker.lease.seconds)
        }
    }

    public func retire(worker name: String) throws {
        try statement { connection in _ = try connection.query(Statements.retireWorker, name) }
    }

    public func liveWorkers() throws -> [WorkerRecord] {
        try statement { connection in
            try connection.query(Statements.liveWorkers).map { row in
                WorkerRecord(name: try row["name"], host: try row["host"], pid: Int32(try row["pid"] as Int), hasGPU: try row["gpu"],
                             slots: try row["slots"], lease: .seconds(try row["lease_s"] as Double))
            }
        }
    }

    public func workerCounts(of id: JobID) throws -> [String: Int] {
        try statement { connection in
            let pairs = try connection.query(Statements.workerCounts, id.rawValue).map { row in
                (try row["ran_by"] as String, Int(try row["chunks"] as Int))
            }
            return Dictionary(pairs) { first, _ in first }
        }
    }

    /// Gives the chunk back unfinished, if `lease` still holds it, so that any worker may claim it
    /// at once (a stopping worker's chunks), and journals `released`. Like a renewal, a release does
    /// not wait for the WAL flush: one lost in a server crash leaves the lease to expire and the
    /// chunk to be rescued then.
    /// - Returns: whether the lease still held the chunk; `true` also when the call runs again after
    ///   its reply was lost and finds that its earlier run applied (``applyingOnceWhileHeld(_:)``).
    @discardableResult
    public func release(_ lease: ChunkLease) throws -> Bool {
        try applyingOnceWhileHeld { connection in
            try connection.query(Statements.withoutWaitingForFlush)
            return try Self.release(lease, on: connection)
        }
    }

    /// Ends the lease's job with `change`, gives the chunk back and journals both, in one
    /// transaction, only if `lease` still holds the chunk (``LeasingJobStore/endJob(_:_:journal:)``).
    /// Unlike a release, it waits for the WAL flush: the job's state is durable when it returns.
    /// - Returns: whether the lease still held the chunk; `true` also when the call runs again after
    ///   its reply was lost and finds that its earlier run applied (``applyingOnceWhileHeld(_:)``).
    @discardableResult
    public func endJob(_ lease: ChunkLease, _ change: StateChange, journal event: JournalEntry?) throws -> Bool {
        try applyingOnceWhileHeld { connection in
            guard try Self.release(lease, on: connection) else { return false }
            try Self.apply(change, to: lease.jobID, journal: event, on: connection)
            return true
        }
    }

    /// Gives the chunk back, if `lease` still holds it, and journals `released`, inside the caller's transaction.
    /// - Returns: whether the lease still held the chunk.
    private static func release(_ lease: ChunkLease, on connection: Connection) throws -> Bool {
        guard try connection.query(Statements.releaseLease, lease.jobID.rawValue, lease.chunkIndex, lease.epoch,
                                   lease.worker, lease.token).rowsAffected == 1 else { return false }
        try append(lease.releasedEntry, on: connection)
        return true
    }
}

extension PostgresJobStore.Statements {
    /// `TaskResources.gpu`'s bit in a stored request's `requiredResources`.
    private static let gpu = TaskResources.gpu.rawValue
    /// `$1` the job or NULL, `$2` the worker, `$3` the lease in seconds, `$4` whether the worker has
    /// a GPU, `$5` the journal's time, `$6` the claim's token. A queued job whose chunk is claimed is
    /// running from then on. Besides the lease, returns whether the job was asked to stop and the
    /// version of its record (`job_version`: the row's `xmin`, the transaction that wrote its current
    /// version, which every update of the row replaces; read before this claim's own update of a
    /// queued job, so the next claim reports a newer one). A claim does not wait for the WAL flush: `set_config(…, true)` in its
    /// result turns `synchronous_commit` off for the statement's own transaction, which commits
    /// after it (one round trip, where `SET LOCAL` would need a transaction block around it).
    /// Jobs are read in queue order and, for each, its first free
    /// chunk from the index of unfinished chunks in claim order (``ClaimOrder``: the longest
    /// expected first; the package stage last, and only once it is the first unfinished one left),
    /// so a claim costs the same in a job of any size: `mediajob_first_free_chunk` (migration 17)
    /// walks that index whatever the planner's statistics say, and locks the chunk it returns.
    static let claimChunk = PreparedStatement("mediajob_claim_chunk", """
        WITH next AS (
            SELECT j.id AS job_id, c.free_idx AS idx, c.free_previous_owner AS previous_owner,
                j.xmin::text::bigint AS job_version
            FROM jobs j CROSS JOIN LATERAL mediajob_first_free_chunk(j.id, $2) c
            WHERE j.state IN ('queued', 'running')
                AND ($1::text IS NULL OR j.id = $1::text)
                AND ($4::boolean OR (convert_from(j.request, 'UTF8')::jsonb ->> 'requiredResources')::int & \(gpu) = 0)
            ORDER BY j.queue_seq
            LIMIT 1
        ), claimed AS (
            UPDATE chunks c SET epoch = c.epoch + 1,
                attempt = c.attempt + CASE WHEN next.previous_owner IS NULL THEN 0 ELSE 1 END,
                lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3), lease_token = $6
            FROM next WHERE c.job_id = next.job_id AND c.idx = next.idx
            RETURNING c.job_id, c.idx, c.plan, c.epoch, c.attempt, c.failures, next.previous_owner, next.job_version
        ), started AS (
            UPDATE jobs j SET state = 'running', updated_at = $5
            FROM claimed WHERE j.id = claimed.job_id AND j.state = 'queued'
        ), journalled AS (
            INSERT INTO journal (job_id, at, event, detail)
            SELECT job_id, $5, '\(JournalEntry.Event.claimed.rawValue)', jsonb_strip_nulls(jsonb_build_object(
                'chunk', idx::text, 'epoch', epoch::text, 'worker', $2::text, 'token', $6::text,
                'rescued_from', previous_owner))::text
            FROM claimed
        )
        SELECT job_id, idx, plan, epoch, attempt, failures, job_version,
            EXISTS (SELECT 1 FROM cancel_requests r WHERE r.job_id = claimed.job_id) AS cancel_requested,
            set_config('synchronous_commit', 'off', true) AS unflushed
        FROM claimed
        """)
    /// The chunk a claim by worker `$2` with token `$1` holds, still leased, with ``claimChunk``'s
    /// columns: what a claim run again after its reply was lost looks for first
    /// (``PostgresJobStore/claimChunk(worker:lease:job:hasGPU:)``). The lease columns are not
    /// indexed, so that renewals stay cheap: this reads the unfinished chunks, on such a retry only.
    static let claimedChunk = PreparedStatement("mediajob_claimed_chunk", """
        SELECT job_id, idx, plan, epoch, attempt, failures,
            (SELECT j.xmin::text::bigint FROM jobs j WHERE j.id = chunks.job_id) AS job_version,
            EXISTS (SELECT 1 FROM cancel_requests r WHERE r.job_id = chunks.job_id) AS cancel_requested
        FROM chunks
        WHERE lease_token = $1 AND lease_owner = $2 AND NOT done AND lease_expires_at > now()
        """)
    /// Gives a chunk whose worker (`$4`) could not open an input back with one more failure and
    /// message `$5`; the expiry, `$6` seconds from now, keeps that worker from claiming it again
    /// before then (``claimChunk``), so that another may take it first. `$7` the claim's token.
    static let failChunkForElsewhere = PreparedStatement("mediajob_fail_chunk_for_elsewhere", """
        UPDATE chunks SET failures = failures + 1, failure = $5, failed_by = $4, lease_owner = NULL,
            lease_expires_at = now() + make_interval(secs => $6)
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $7 AND NOT done
        """)
    /// Settles a chunk whose items are bad, with message `$5`: no claim takes it until the job is
    /// resumed. `$6` the claim's token.
    static let settleFailedChunk = PreparedStatement("mediajob_settle_failed_chunk", """
        UPDATE chunks SET failed = true, failure = $5, failed_by = $4, lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $6 AND NOT done
        """)
    /// `$6` the claim's token: every statement of a lease matches its job, chunk, epoch, worker and token.
    static let renewLease = PreparedStatement("mediajob_renew_lease", """
        UPDATE chunks SET lease_expires_at = now() + make_interval(secs => $5)
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $6 AND NOT done
            AND lease_expires_at > now()
        RETURNING EXISTS (SELECT 1 FROM cancel_requests r WHERE r.job_id = $1) AS cancel_requested
        """)
    /// `$9` the claim's token.
    static let commitChunk = PreparedStatement("mediajob_commit_chunk", """
        UPDATE chunks SET done = true, cost_s = $5, executor = $6, done_at = $7, output = $8,
            ran_by = lease_owner, lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $9 AND NOT done
        """)
    /// A chunk's commit, all of it in one statement: `$1` job, `$2` chunk, `$3` epoch, `$4` worker,
    /// `$5` cost, `$6` executor, `$7` the time, `$8` output, `$9` progress and `$10` its fraction,
    /// `$11` kind, `$12` stage and `$13` its learned cost, `$14` the skipped items (a JSON array of
    /// `item` and `reason`) with `$15` their outcome, `$16` the claim's token. Marks the chunk done
    /// if the lease still holds it, and only then stores the progress in the chunk's row of
    /// `job_progress` unless that row's is further, marks the job progressed (journalling its first
    /// progress, when it is its first chunk done), replaces the chunk's skipped items, learns the
    /// cost, and journals the checkpoint with the bar's fraction now; when no other chunk of the
    /// job is left, announces on ``AnnouncementListener/workChannel`` that its package stage can be
    /// claimed (a commit beside it, not yet committed, may leave that to the idle workers' next
    /// look). Returns one row when it committed, none when the lease no longer held.
    ///
    /// No row that other chunks' commits write is locked, so commits wait for the WAL flush
    /// together (PostgreSQL's group commit): the job's row only by the first commit, which sets
    /// `progressed` (the others read it set and skip it without a lock), a `job_progress` row only
    /// by chunks ``PostgresJobStore/progressShards`` apart, and a cost only when it changed (an
    /// unchanged one is neither updated nor locked, which `ON CONFLICT DO UPDATE` would do).
    static let commitChunkWithProgress = PreparedStatement("mediajob_commit_chunk_with_progress", """
        WITH marked AS (
            UPDATE chunks SET done = true, cost_s = $5, executor = $6, done_at = $7, output = $8,
                ran_by = lease_owner, lease_owner = NULL, lease_expires_at = NULL
            WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $16 AND NOT done AND idx >= 0
            RETURNING job_id
        ), stored AS (
            INSERT INTO job_progress (job_id, shard, fraction, progress, updated_at)
            SELECT $1, $2 % \(PostgresJobStore.progressShards), $10, $9, $7 FROM marked
            ON CONFLICT (job_id, shard) DO UPDATE SET
                progress = CASE WHEN job_progress.fraction > excluded.fraction THEN job_progress.progress ELSE excluded.progress END,
                fraction = GREATEST(job_progress.fraction, excluded.fraction), updated_at = excluded.updated_at
            RETURNING fraction
        ), shown AS (
            SELECT GREATEST(stored.fraction, (SELECT max(p.fraction) FROM job_progress p WHERE p.job_id = $1),
                            (SELECT \(PostgresJobRow.fraction(of: "j.progress")) FROM jobs j WHERE j.id = $1)) AS fraction
            FROM stored
        ), first AS (
            UPDATE jobs j SET progressed = true FROM marked WHERE j.id = marked.job_id AND NOT j.progressed
            RETURNING j.id
        ), forgotten AS (
            DELETE FROM bad_items b USING marked WHERE b.job_id = $1 AND b.chunk_idx = $2
        ), skipped AS (
            INSERT INTO bad_items (job_id, chunk_idx, position, item, reason, outcome)
            SELECT $1, $2, s.position - 1, s.item ->> 'item', s.item ->> 'reason', $15
            FROM marked, jsonb_array_elements($14::jsonb) WITH ORDINALITY s(item, position)
        ), relearned AS (
            UPDATE cost_history SET seconds_per_work = $13, updated_at = $7
            FROM marked WHERE kind = $11 AND stage = $12 AND seconds_per_work IS DISTINCT FROM $13
        ), learned AS (
            INSERT INTO cost_history (kind, stage, seconds_per_work, updated_at)
            SELECT $11, $12, $13, $7 FROM marked
            ON CONFLICT (kind, stage) DO NOTHING
        ), journalled AS (
            INSERT INTO journal (job_id, at, event, detail)
            SELECT $1, $7, entry.event, entry.detail
            FROM shown, LATERAL (VALUES
                (1, '\(JournalEntry.Event.progressFirst.rawValue)', '{}'),
                (2, '\(JournalEntry.Event.checkpoint.rawValue)', jsonb_build_object(
                    'chunk', $2::text, 'epoch', $3::text, 'worker', $4::text, 'output', $8::text,
                    'fraction', round(shown.fraction::numeric, 4)::text)::text)
            ) entry(position, event, detail)
            WHERE entry.position = 2 OR EXISTS (SELECT 1 FROM first)
            ORDER BY entry.position
        ), announced AS (
            SELECT pg_notify('\(AnnouncementListener.workChannel)', $1) FROM marked
            WHERE NOT EXISTS (SELECT 1 FROM chunks o WHERE o.job_id = $1 AND o.idx >= 0 AND o.idx <> $2 AND NOT o.done
                                  AND NOT o.failed)
        )
        SELECT 1 AS committed, (SELECT count(*) FROM announced) AS announced FROM marked
        """)
    static let chunkOutput = PreparedStatement(
        "mediajob_chunk_output", "SELECT done, output FROM chunks WHERE job_id = $1 AND idx = $2")
    /// Lets this transaction commit without waiting for the WAL flush (renewals and releases only).
    static let withoutWaitingForFlush = PreparedStatement(
        "mediajob_without_waiting_for_flush", "SELECT set_config('synchronous_commit', 'off', true)")
    static let announceWorker = PreparedStatement("mediajob_announce_worker", """
        INSERT INTO workers (name, host, pid, gpu, slots, lease_s, heartbeat_at) VALUES ($1, $2, $3, $4, $5, $6, now())
        ON CONFLICT (name) DO UPDATE SET host = excluded.host, pid = excluded.pid, gpu = excluded.gpu, slots = excluded.slots,
            lease_s = excluded.lease_s, heartbeat_at = excluded.heartbeat_at
        """)
    static let retireWorker = PreparedStatement("mediajob_retire_worker", "DELETE FROM workers WHERE name = $1")
    static let liveWorkers = PreparedStatement("mediajob_live_workers", """
        SELECT name, host, pid, gpu, slots, lease_s FROM workers
        WHERE heartbeat_at + make_interval(secs => lease_s) > now() ORDER BY name
        """)
    static let workerCounts = PreparedStatement("mediajob_worker_counts", """
        SELECT ran_by, count(*) AS chunks FROM chunks WHERE job_id = $1 AND idx >= 0 AND ran_by IS NOT NULL GROUP BY ran_by
        """)
    /// `$5` the claim's token.
    static let releaseLease = PreparedStatement("mediajob_release_lease", """
        UPDATE chunks SET lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND lease_owner = $4 AND lease_token = $5 AND NOT done
        """)
}
