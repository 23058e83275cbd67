import Foundation
import JobEngine
import TaskContract

/// The lease protocol on one machine (DESIGN.md §10): `mediajob worker` processes sharing a state
/// folder share its jobs' chunks. Every claim, renewal, commit and release is one `BEGIN IMMEDIATE`
/// transaction, so claims never overlap (SQLite has one writer at a time; the others wait through
/// the busy timeout); leases are timed by ``SQLiteClock``, the one clock every process sharing the
/// file reads; epochs fence commits as in the PostgreSQL store. Only jobs left to workers
/// (``JobRecord/isLeftToWorkers``: submitted with `--detach`) are claimed: a job a process runs in
/// the foreground is that process's, which records its chunks without leases.
///
/// No call here is run again after a lost reply, as the PostgreSQL store's are: SQLite runs in the
/// calling process, so a COMMIT that applied returns to its caller, or the process is gone with it.
extension SQLiteJobStore: LeasingJobStore {
    public func claimChunk(worker: String, lease: Duration, job: JobID? = nil, hasGPU: Bool = false) throws -> ChunkLease? {
        try write { database in
            let found = try database.prepare(Statements.nextChunk)
                .rows([job.map { .text($0.rawValue) } ?? .null, .integer(hasGPU ? 1 : 0), .text(worker)]) { row in
                    (id: try row.text("job_id"), index: try row.integer("idx"), previous: try row.optionalText("previous_owner"))
                }.first
            guard let found else { return nil }
            let cancelRequested = try Self.isCancelRequested(JobID(rawValue: found.id), in: database)
            let taken = try database.prepare(Statements.claim)
                .rows([.text(found.id), .integer(found.index), .text(worker), .real(lease.seconds)]) { row in
                    ChunkLease(jobID: JobID(rawValue: found.id), chunkIndex: Int(found.index),
                               plan: try JobRow.decode(PlannedChunk.self, row.blob("plan")), epoch: try row.integer("epoch"),
                               attempt: Int(try row.integer("attempt")), failures: Int(try row.integer("failures")),
                               worker: worker, duration: lease, cancelRequested: cancelRequested)
                }.first
            guard let claimed = taken else { return nil }
            // A queued job is running from its first claim on.
            try database.prepare("UPDATE jobs SET state = 'running', updated_at = ?2 WHERE id = ?1 AND state = 'queued'")
                .run([.text(found.id), .real(Date().timeIntervalSince1970)])
            var detail = ["chunk": String(claimed.chunkIndex), "epoch": String(claimed.epoch), "worker": worker]
            if let previous = found.previous { detail["rescued_from"] = previous }
            try Self.append(JournalEntry(jobID: claimed.jobID, event: .claimed, detail: detail), to: database)
            return claimed
        }
    }

    public func renew(_ lease: ChunkLease) throws -> LeaseRenewal {
        try write { database in
            try database.prepare(Statements.renew).run(Self.holding(lease) + [.real(lease.duration.seconds)])
            guard database.changes == 1 else { return .lost }
            return .renewed(cancelRequested: try Self.isCancelRequested(lease.jobID, in: database))
        }
    }

    public func commit(_ lease: ChunkLease, checkpoint: Checkpoint) throws -> LeaseCommit {
        try write { database in
            let firstDone = try Self.isFirstDone(lease.jobID, in: database)
            try database.prepare(Statements.commit).run(Self.holding(lease) + [
                .real(checkpoint.costSeconds), .optional(checkpoint.executor), .real(Date().timeIntervalSince1970),
                .text(lease.outputName),
            ])
            let detail = ["epoch": String(lease.epoch), "worker": lease.worker, "output": lease.outputName]
            guard database.changes == 1 else {
                // The same commit, already applied (a retry): refusing it would make the worker
                // delete a committed output.
                let current = try database.prepare("SELECT done, output FROM chunks WHERE job_id = ?1 AND idx = ?2")
                    .rows([.text(lease.jobID.rawValue), .integer(Int64(lease.chunkIndex))]) { row in
                        (done: try row.integer("done") != 0, output: try row.optionalText("output"))
                    }.first
                if let current, current.done, current.output == lease.outputName { return .committed }
                try Self.append(JournalEntry(jobID: lease.jobID, event: .commitRefused,
                                             detail: detail.merging(["chunk": String(lease.chunkIndex)]) { $1 }),
                                to: database)
                return .refused
            }
            guard lease.chunkIndex != ChunkLease.packageIndex else {
                try Self.apply(StateChange(state: .completed, progress: checkpoint.progress, clearsCancel: true), to: lease.jobID,
                               journal: JournalEntry(jobID: lease.jobID, event: .ended,
                                                     detail: detail.merging(["outcome": "completed"]) { $1 }),
                               in: database)
                return .committed
            }
            let stored = try database.prepare("SELECT progress FROM jobs WHERE id = ?1")
                .rows([.text(lease.jobID.rawValue)]) { try JobRow.decode(ProgressSnapshot.self, $0.blob("progress")) }.first
            guard let stored else { throw JobStoreError.noSuchJob(lease.jobID) }
            let progress = stored.fraction > checkpoint.progress.fraction ? stored : checkpoint.progress
            try Self.record(checkpoint, progress: progress, firstDone: firstDone, detail: detail, in: database)
            return .committed
        }
    }

    @discardableResult
    public func fail(_ lease: ChunkLease, _ failure: ChunkFailure) throws -> Bool {
        try write { database in
            switch failure {
            case .elsewhere(let message):
                try database.prepare(Statements.failForElsewhere)
                    .run(Self.holding(lease) + [.text(message), .real(lease.duration.seconds)])
                guard database.changes == 1 else { return false }
            case .badItems(let items, let message):
                try database.prepare(Statements.settleFailed).run(Self.holding(lease) + [.text(message)])
                guard database.changes == 1 else { return false }
                try Self.replaceBadItems(items, outcome: .failed, of: lease.jobID, chunk: lease.chunkIndex, in: database)
            }
            try Self.append(failure.journalEntry(for: lease), to: database)
            return true
        }
    }

    public func announce(_ worker: WorkerRecord) throws {
        try write { database in
            try database.prepare("""
                INSERT INTO workers (name, host, pid, gpu, slots, lease_s, heartbeat_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, \(SQLiteClock.now))
                ON CONFLICT (name) DO UPDATE SET host = excluded.host, pid = excluded.pid, gpu = excluded.gpu,
                    slots = excluded.slots, lease_s = excluded.lease_s, heartbeat_at = excluded.heartbeat_at
                """).run([.text(worker.name), .text(worker.host), .integer(Int64(worker.pid)), .integer(worker.hasGPU ? 1 : 0),
                          .integer(Int64(worker.slots)), .real(worker.lease.seconds)])
        }
    }

    public func retire(worker name: String) throws {
        try write { try $0.prepare("DELETE FROM workers WHERE name = ?1").run([.text(name)]) }
    }

    public func workerCounts(of id: JobID) throws -> [String: Int] {
        try read { database in
            let pairs = try database.prepare("""
                SELECT ran_by, COUNT(*) AS chunks FROM chunks WHERE job_id = ?1 AND idx >= 0 AND ran_by IS NOT NULL GROUP BY ran_by
                """).rows([.text(id.rawValue)]) { (try $0.text("ran_by"), Int(try $0.integer("chunks"))) }
            return Dictionary(pairs) { first, _ in first }
        }
    }

    public func liveWorkers() throws -> [WorkerRecord] {
        try read { database in
            try database.prepare("""
                SELECT name, host, pid, gpu, slots, lease_s FROM workers
                WHERE heartbeat_at + lease_s > \(SQLiteClock.now) ORDER BY name
                """).rows([]) { row in
                    WorkerRecord(name: try row.text("name"), host: try row.text("host"), pid: Int32(try row.integer("pid")),
                                 hasGPU: try row.integer("gpu") != 0, slots: Int(try row.integer("slots")),
                                 lease: .seconds(try row.real("lease_s")))
                }
        }
    }

    @discardableResult
    public func release(_ lease: ChunkLease) throws -> Bool {
        try write { try Self.release(lease, in: $0) }
    }

    @discardableResult
    public func endJob(_ lease: ChunkLease, _ change: StateChange, journal event: JournalEntry?) throws -> Bool {
        try write { database in
            guard try Self.release(lease, in: database) else { return false }
            try Self.apply(change, to: lease.jobID, journal: event, in: database)
            return true
        }
    }

    /// Gives the chunk back, if `lease` still holds it, and journals `released`, inside the caller's transaction.
    /// - Returns: whether the lease still held the chunk.
    private static func release(_ lease: ChunkLease, in database: SQLiteDatabase) throws -> Bool {
        try database.prepare(Statements.release).run(holding(lease))
        guard database.changes == 1 else { return false }
        try append(lease.releasedEntry, to: database)
        return true
    }

    /// The lease's chunk, epoch and worker, as `?1`…`?4` of the statements that need the lease held.
    private static func holding(_ lease: ChunkLease) -> [SQLiteValue] {
        [.text(lease.jobID.rawValue), .integer(Int64(lease.chunkIndex)), .integer(lease.epoch), .text(lease.worker)]
    }

    /// The lease statements. `?1`…`?4` are the chunk's job, index, epoch and worker where a lease is held.
    private enum Statements {
        /// `TaskResources.gpu`'s bit in a stored request's `requiredResources`.
        private static let gpu = TaskResources.gpu.rawValue

        /// The chunk the next claim takes: of the oldest queued or running job left to workers
        /// (`?1`, if not NULL: that job only) whose chunks `?2` (has a GPU) may run, free or with
        /// its lease run out, and not failed by worker `?3` less than a lease ago, in claim order
        /// (``ClaimOrder``: the longest expected first); the package stage last, once every other
        /// chunk is done or failed with bad items.
        static let nextChunk = """
            SELECT c.job_id, c.idx, c.lease_owner AS previous_owner
            FROM chunks c JOIN jobs j ON j.id = c.job_id
            WHERE j.state IN ('queued', 'running') AND j.owner_pid IS NULL AND c.done = 0 AND c.failed = 0
                AND (c.lease_owner IS NULL OR c.lease_expires_at <= \(SQLiteClock.now))
                AND (c.failed_by IS NOT ?3 OR c.lease_expires_at IS NULL OR c.lease_expires_at <= \(SQLiteClock.now))
                AND (?1 IS NULL OR c.job_id = ?1)
                AND (?2 OR COALESCE(json_extract(CAST(j.request AS TEXT), '$.requiredResources'), 0) & \(gpu) = 0)
                AND (c.idx >= 0 OR NOT EXISTS (SELECT 1 FROM chunks o WHERE o.job_id = c.job_id AND o.idx >= 0 AND o.done = 0
                                               AND o.failed = 0))
            ORDER BY j.queue_seq, c.idx < 0, c.claim_rank, c.idx
            LIMIT 1
            """
        /// Gives chunk `?2` of job `?1` to worker `?3` for `?4` seconds under a new epoch; a
        /// lease that ran out counts as an attempt.
        static let claim = """
            UPDATE chunks SET epoch = epoch + 1, attempt = attempt + (lease_owner IS NOT NULL),
                lease_owner = ?3, lease_expires_at = \(SQLiteClock.now) + ?4
            WHERE job_id = ?1 AND idx = ?2
            RETURNING plan, epoch, attempt, failures
            """
        /// Gives back a chunk whose worker could not open an input, with one more failure and message
        /// `?5`; the expiry, `?6` seconds from now, keeps that worker from claiming it again before then.
        static let failForElsewhere = """
            UPDATE chunks SET failures = failures + 1, failure = ?5, failed_by = ?4, lease_owner = NULL,
                lease_expires_at = \(SQLiteClock.now) + ?6
            WHERE job_id = ?1 AND idx = ?2 AND epoch = ?3 AND lease_owner = ?4 AND done = 0
            """
        /// Settles a chunk whose items are bad, with message `?5`, until the job is resumed.
        static let settleFailed = """
            UPDATE chunks SET failed = 1, failure = ?5, failed_by = ?4, lease_owner = NULL, lease_expires_at = NULL
            WHERE job_id = ?1 AND idx = ?2 AND epoch = ?3 AND lease_owner = ?4 AND done = 0
            """
        /// Extends a held lease by `?5` seconds from now.
        static let renew = """
            UPDATE chunks SET lease_expires_at = \(SQLiteClock.now) + ?5
            WHERE job_id = ?1 AND idx = ?2 AND epoch = ?3 AND lease_owner = ?4 AND done = 0
                AND lease_expires_at > \(SQLiteClock.now)
            """
        /// Marks the chunk done under its lease's epoch, with cost `?5`, executor `?6`, time `?7` and output `?8`.
        static let commit = """
            UPDATE chunks SET done = 1, cost_s = ?5, executor = ?6, done_at = ?7, output = ?8,
                ran_by = lease_owner, lease_owner = NULL, lease_expires_at = NULL
            WHERE job_id = ?1 AND idx = ?2 AND epoch = ?3 AND lease_owner = ?4 AND done = 0
            """
        static let release = """
            UPDATE chunks SET lease_owner = NULL, lease_expires_at = NULL
            WHERE job_id = ?1 AND idx = ?2 AND epoch = ?3 AND lease_owner = ?4 AND done = 0
            """
    }
}

/// The one clock of an SQLite store's leases: SQLite's `'now'`, which every process sharing the
/// file reads from the same machine, as Unix seconds with a fraction (`julianday` keeps
/// milliseconds; `unixepoch('subsec')` needs SQLite 3.42, newer than Debian 12's 3.40).
enum SQLiteClock {
    /// Now, as an SQL expression: the same value throughout one statement.
    static let now = "((julianday('now') - 2440587.5) * 86400.0)"
}
