/// The job store's schema, as an ordered list of migrations. The database's `user_version`
/// says how many have run; opening a store runs the rest, together in one transaction.
enum SQLiteSchema {
    /// Version 1: jobs, their chunks, and the lifecycle journal.
    /// Version 2: learned unit costs per job kind, and cancel requests between processes.
    /// Version 3: learned costs are seconds per unit of work (chunks state their work); the
    /// version-2 figures, seconds per chunk, mean something else and are dropped.
    /// Version 4: bad items (skipped or failed) per chunk and for the package stage, which
    /// replace the `skipped-N.txt` files job kinds used to keep in the workspace.
    /// Version 5: chunk leases, so that worker processes sharing the state folder share a job's
    /// chunks (``LeasingJobStore``): `lease_owner` holds a chunk until `lease_expires_at` (Unix
    /// seconds by SQLite's clock, ``SQLiteClock``), `epoch` grows with every claim and fences
    /// commits, `attempt` counts leases that expired, `output` names the committed output; and
    /// every job's package stage as one more chunk, at index -1 (jobs stored before get theirs here).
    /// Version 6: failed chunks (``ChunkFailure``): `failures` counts leases whose worker could not
    /// open an input, `failed_by` is the last such worker, `failure` the last message (naming the
    /// host); `failed` settles a chunk whose items are bad until the job is resumed.
    /// Version 7: live workers (``WorkerRecord``), each one's heartbeat by ``SQLiteClock``.
    /// Version 8: the worker whose lease committed each chunk.
    /// Version 9: when the store recorded each journal entry, by ``SQLiteClock``.
    /// Version 10: the work of each job's chunks not done, by stage (``JobStore/owedWork(of:)``),
    /// kept by triggers as chunks are inserted, done, undone and deleted.
    /// Version 11: each chunk's rank in claim order (``ClaimOrder``: the longest expected first),
    /// fixed when its job is planned; chunks stored before keep index order.
    /// Version 12: each job's settings in a table of their own (`job_specs`), out of the `jobs`
    /// row that every checkpoint updates: SQLite writes a changed row whole, overflow pages and
    /// all, so a 20,000-photo job wrote its 3 MB of settings again at every checkpoint.
    /// `jobs.spec` is left empty.
    static let migrations: [String] = [
        """
        CREATE TABLE jobs (
            id TEXT PRIMARY KEY,
            identifier TEXT NOT NULL,
            kind TEXT NOT NULL,
            request BLOB NOT NULL,
            spec BLOB NOT NULL,
            work_key TEXT NOT NULL,
            destination TEXT NOT NULL,
            workspace TEXT NOT NULL,
            overwrite INTEGER NOT NULL,
            parallelism INTEGER NOT NULL,
            state TEXT NOT NULL,
            failure TEXT,
            rejection TEXT,
            message TEXT,
            progress BLOB NOT NULL,
            queue_seq INTEGER NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            heartbeat_at REAL,
            owner_pid INTEGER
        );
        CREATE INDEX jobs_by_work_key ON jobs(work_key);
        CREATE TABLE chunks (
            job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            plan BLOB NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            cost_s REAL,
            executor TEXT,
            done_at REAL,
            PRIMARY KEY (job_id, idx)
        );
        CREATE TABLE journal (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            job_id TEXT NOT NULL,
            at REAL NOT NULL,
            event TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        CREATE INDEX journal_by_job ON journal(job_id, seq);
        """,
        """
        CREATE TABLE cost_history (
            kind TEXT NOT NULL,
            stage TEXT NOT NULL,
            seconds REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (kind, stage)
        );
        CREATE TABLE cancel_requests (
            job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
            requested_at REAL NOT NULL
        );
        """,
        """
        DELETE FROM cost_history;
        ALTER TABLE cost_history RENAME COLUMN seconds TO seconds_per_work;
        """,
        """
        CREATE TABLE bad_items (
            job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
            chunk_idx INTEGER,
            position INTEGER NOT NULL,
            item TEXT NOT NULL,
            reason TEXT NOT NULL,
            outcome TEXT NOT NULL
        );
        CREATE INDEX bad_items_by_job ON bad_items(job_id, chunk_idx, position);
        """,
        """
        ALTER TABLE chunks ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE chunks ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE chunks ADD COLUMN lease_owner TEXT;
        ALTER TABLE chunks ADD COLUMN lease_expires_at REAL;
        ALTER TABLE chunks ADD COLUMN output TEXT;
        INSERT OR IGNORE INTO chunks (job_id, idx, plan)
            SELECT id, -1, CAST('{"key":"package","stage":"package","work":1}' AS BLOB) FROM jobs;
        """,
        """
        ALTER TABLE chunks ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE chunks ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE chunks ADD COLUMN failure TEXT;
        ALTER TABLE chunks ADD COLUMN failed_by TEXT;
        """,
        """
        CREATE TABLE workers (
            name TEXT PRIMARY KEY,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            gpu INTEGER NOT NULL,
            slots INTEGER NOT NULL,
            lease_s REAL NOT NULL,
            heartbeat_at REAL NOT NULL
        );
        """,
        // The worker (`host:pid`) whose lease committed each chunk, for `status`.
        "ALTER TABLE chunks ADD COLUMN ran_by TEXT;",
        // When the store recorded each journal entry, by ``SQLiteClock``, set by a trigger as
        // PostgreSQL's column default does (ALTER TABLE cannot give a column a default that is not
        // constant); entries from before have none.
        """
        ALTER TABLE journal ADD COLUMN stored_at REAL;
        CREATE TRIGGER journal_stored_at AFTER INSERT ON journal FOR EACH ROW WHEN NEW.stored_at IS NULL
        BEGIN
            UPDATE journal SET stored_at = \(SQLiteClock.now) WHERE seq = NEW.seq;
        END;
        """,
        // Counters of the owed work, so that a worker costing its chunk reads a row a stage instead
        // of every owed chunk's plan. The triggers see every path that plans, lands, resets or
        // removes a chunk; the package stage (index -1) is not counted. A stage's last chunk
        // leaves exactly nothing, whatever rounding the subtractions left.
        """
        CREATE TABLE owed_work (
            job_id TEXT NOT NULL,
            stage TEXT NOT NULL,
            work REAL NOT NULL,
            chunks INTEGER NOT NULL,
            PRIMARY KEY (job_id, stage)
        );
        INSERT INTO owed_work (job_id, stage, work, chunks)
            SELECT job_id, \(stage("plan")), SUM(\(work("plan"))), COUNT(*) FROM chunks
            WHERE idx >= 0 AND done = 0 GROUP BY job_id, 2;
        CREATE TRIGGER owed_work_planned AFTER INSERT ON chunks FOR EACH ROW WHEN NEW.idx >= 0 AND NEW.done = 0
        BEGIN
            \(owe("NEW"))
        END;
        CREATE TRIGGER owed_work_reset AFTER UPDATE OF done ON chunks FOR EACH ROW
            WHEN NEW.idx >= 0 AND OLD.done <> 0 AND NEW.done = 0
        BEGIN
            \(owe("NEW"))
        END;
        CREATE TRIGGER owed_work_done AFTER UPDATE OF done ON chunks FOR EACH ROW
            WHEN NEW.idx >= 0 AND OLD.done = 0 AND NEW.done <> 0
        BEGIN
            \(settle("OLD"))
        END;
        CREATE TRIGGER owed_work_removed AFTER DELETE ON chunks FOR EACH ROW WHEN OLD.idx >= 0 AND OLD.done = 0
        BEGIN
            \(settle("OLD"))
        END;
        """,
        """
        ALTER TABLE chunks ADD COLUMN claim_rank INTEGER NOT NULL DEFAULT 0;
        UPDATE chunks SET claim_rank = idx;
        """,
        """
        CREATE TABLE job_specs (
            job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
            spec BLOB NOT NULL
        );
        INSERT INTO job_specs (job_id, spec) SELECT id, spec FROM jobs;
        UPDATE jobs SET spec = X'';
        """,
    ]

    /// The first version whose chunks have ranks in claim order (``ClaimOrder``).
    static let claimRanksVersion = 11

    /// The first version that keeps job settings in `job_specs`.
    static let specsApartVersion = 12

    /// The stage of the chunk whose plan is `plan` (a column or a trigger's `NEW.plan`).
    private static func stage(_ plan: String) -> String {
        "json_extract(CAST(\(plan) AS TEXT), '$.stage')"
    }

    /// The work of the chunk whose plan is `plan`, 1 where the plan states none (``PlannedChunk/work``).
    private static func work(_ plan: String) -> String {
        "COALESCE(json_extract(CAST(\(plan) AS TEXT), '$.work'), 1)"
    }

    /// Adds the chunk `row` (`NEW` or `OLD`) to its stage's owed work.
    private static func owe(_ row: String) -> String {
        """
        INSERT INTO owed_work (job_id, stage, work, chunks) VALUES (\(row).job_id, \(stage("\(row).plan")), \(work("\(row).plan")), 1)
            ON CONFLICT (job_id, stage) DO UPDATE SET work = owed_work.work + excluded.work, chunks = owed_work.chunks + 1;
        """
    }

    /// Takes the chunk `row` (`NEW` or `OLD`) out of its stage's owed work.
    private static func settle(_ row: String) -> String {
        """
        UPDATE owed_work SET work = CASE WHEN chunks > 1 THEN MAX(0, work - \(work("\(row).plan"))) ELSE 0 END, chunks = chunks - 1
            WHERE job_id = \(row).job_id AND stage = \(stage("\(row).plan"));
        """
    }

    /// The newest schema version.
    static var latest: Int { migrations.count }

    /// Brings the database up to `version` (default: the newest).
    /// - Throws: ``SQLiteStoreError/schemaTooNew(path:found:known:)`` when the database is newer
    ///   than this program knows.
    static func migrate(_ database: SQLiteDatabase, to version: Int = latest) throws {
        let current = try userVersion(database)
        guard current <= latest else {
            throw SQLiteStoreError.schemaTooNew(path: database.path, found: current, known: latest)
        }
        guard current < version else { return }
        // One transaction for every version: one sync of the log, where a new store paid one a version.
        try database.transaction(context: "migrating \(database.path) to schema version \(version)") {
            // Another process may have migrated since we looked: start again from where it is, under the write lock.
            let found = try userVersion(database)
            guard found < version else { return }
            for next in found..<version { try database.execute(migrations[next]) }
            try database.execute("PRAGMA user_version = \(version)")
        }
    }

    /// The schema version the database is at.
    static func userVersion(_ database: SQLiteDatabase) throws -> Int {
        Int(try database.prepare("PRAGMA user_version").rows { try $0.integer("user_version") }.first ?? 0)
    }
}
