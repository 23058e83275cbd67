import Postgres

/// The PostgreSQL store's schema: named migrations, applied in order under an advisory lock by the
/// first process that opens a database lacking them (``MigrationRunner``).
///
/// Names are permanent: later versions keep these, unchanged, and add new ones after them.
enum PostgresSchema {
    /// Every migration so far, oldest first.
    static let migrations: [Migration] = [
        Migration("1-jobs-chunks-journal", [
            """
            CREATE TABLE jobs (
                id text PRIMARY KEY,
                identifier text NOT NULL,
                kind text NOT NULL,
                request bytea NOT NULL,
                spec bytea NOT NULL,
                work_key text NOT NULL,
                destination text NOT NULL,
                workspace text NOT NULL,
                overwrite boolean NOT NULL,
                state text NOT NULL,
                failure text,
                rejection text,
                message text,
                progress bytea NOT NULL,
                queue_seq bigint NOT NULL,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL,
                owner_pid integer
            )
            """,
            "CREATE INDEX jobs_by_work_key ON jobs (work_key)",
            "CREATE SEQUENCE job_queue_seq",
            """
            CREATE TABLE chunks (
                job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                idx integer NOT NULL,
                plan bytea NOT NULL,
                done boolean NOT NULL DEFAULT false,
                cost_s double precision,
                executor text,
                done_at double precision,
                PRIMARY KEY (job_id, idx)
            )
            """,
            """
            CREATE TABLE journal (
                seq bigserial PRIMARY KEY,
                job_id text NOT NULL,
                at double precision NOT NULL,
                event text NOT NULL,
                detail text NOT NULL
            )
            """,
            "CREATE INDEX journal_by_job ON journal (job_id, seq)",
        ]),
        Migration("2-costs-and-cancels", [
            """
            CREATE TABLE cost_history (
                kind text NOT NULL,
                stage text NOT NULL,
                seconds_per_work double precision NOT NULL,
                updated_at double precision NOT NULL,
                PRIMARY KEY (kind, stage)
            )
            """,
            """
            CREATE TABLE cancel_requests (
                job_id text PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
                requested_at double precision NOT NULL
            )
            """,
        ]),
        // Leases: a chunk is held by `lease_owner` until `lease_expires_at` (the database's clock);
        // `epoch` grows with every claim and fences commits; `attempt` counts leases that expired;
        // `output` names the committed output. Lease columns are not indexed, so renewals stay cheap.
        Migration("3-chunk-leases", [
            "ALTER TABLE chunks ADD COLUMN epoch bigint NOT NULL DEFAULT 0",
            "ALTER TABLE chunks ADD COLUMN attempt integer NOT NULL DEFAULT 0",
            "ALTER TABLE chunks ADD COLUMN lease_owner text",
            "ALTER TABLE chunks ADD COLUMN lease_expires_at timestamptz",
            "ALTER TABLE chunks ADD COLUMN output text",
        ]),
        // The package stage is one more chunk, at index -1, leased like the others once every other
        // chunk of its job is done; jobs stored before this migration get theirs here.
        Migration("4-package-chunks", [
            """
            INSERT INTO chunks (job_id, idx, plan)
            SELECT id, -1, convert_to('{"key":"package","stage":"package"}', 'UTF8') FROM jobs
            ON CONFLICT (job_id, idx) DO NOTHING
            """,
        ]),
        // Bad items: what a chunk (or, with `chunk_idx` NULL, the package stage) skipped or failed on.
        Migration("5-bad-items", [
            """
            CREATE TABLE bad_items (
                job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                chunk_idx integer,
                position integer NOT NULL,
                item text NOT NULL,
                reason text NOT NULL,
                outcome text NOT NULL
            )
            """,
            "CREATE INDEX bad_items_by_job ON bad_items (job_id, chunk_idx, position)",
        ]),
        // Costs independent of a job's size: `chunks_done` counts a job's done chunks (the package
        // stage not among them) as they are marked, instead of a count at every checkpoint; the
        // partial index holds only unfinished chunks, in the order a claim takes them (the package
        // stage last), so a claim reads the first few entries of one job instead of sorting them all;
        // and claimable jobs are read in queue order from an index of their own. The index leaves the
        // lease columns out, so renewals stay cheap (heap-only updates).
        Migration("6-counters-and-claim-order", [
            "ALTER TABLE jobs ADD COLUMN chunks_done integer NOT NULL DEFAULT 0",
            """
            UPDATE jobs j SET chunks_done = (SELECT count(*) FROM chunks c WHERE c.job_id = j.id AND c.idx >= 0 AND c.done)
            """,
            "CREATE INDEX chunks_unfinished_in_claim_order ON chunks (job_id, (idx < 0), idx) WHERE NOT done",
            "CREATE INDEX jobs_claimable_in_queue_order ON jobs (queue_seq) WHERE state IN ('queued', 'running')",
        ]),
        // Failed chunks (``ChunkFailure``): `failures` counts leases whose worker could not open an
        // input, `failed_by` is the last such worker (it claims the chunk again only after a lease's
        // length, so that another may take it first), `failure` the last message (naming the host);
        // `failed` settles a chunk whose items are bad until the job is resumed.
        Migration("7-chunk-failures", [
            "ALTER TABLE chunks ADD COLUMN failures integer NOT NULL DEFAULT 0",
            "ALTER TABLE chunks ADD COLUMN failed boolean NOT NULL DEFAULT false",
            "ALTER TABLE chunks ADD COLUMN failure text",
            "ALTER TABLE chunks ADD COLUMN failed_by text",
        ]),
        // Live workers, for `status` and for refusing a `.fail` submission no live worker can run:
        // each one's heartbeat by the database's clock, live while less than its lease old.
        Migration("8-workers", [
            """
            CREATE TABLE workers (
                name text PRIMARY KEY,
                host text NOT NULL,
                pid integer NOT NULL,
                gpu boolean NOT NULL,
                slots integer NOT NULL,
                lease_s double precision NOT NULL,
                heartbeat_at timestamptz NOT NULL
            )
            """,
        ]),
        // The worker (`host:pid`) whose lease committed each chunk, for `status`.
        Migration("9-chunk-ran-by", [
            "ALTER TABLE chunks ADD COLUMN ran_by text",
        ]),
        // When the store recorded each journal entry, by the database's clock (Unix seconds; the
        // transaction's start), whoever wrote it: `at` is the writing machine's clock. Entries
        // journalled before this migration have none.
        Migration("10-journal-stored-at", [
            "ALTER TABLE journal ADD COLUMN stored_at double precision",
            "ALTER TABLE journal ALTER COLUMN stored_at SET DEFAULT extract(epoch FROM now())",
        ]),
        // Commits that do not wait for each other: a chunk's commit no longer updates its job's row,
        // whose lock it held through its WAL flush, so that one job's commits were flushed one after
        // another. The progress it moves goes to one of a few rows of `job_progress` (the chunk's
        // index modulo ``PostgresJobStore/progressShards``), and the job's progress is the furthest of
        // those and the job's own; `progressed` replaces the count of done chunks, which only said
        // whether a chunk was the job's first done, and is set once, by that first commit.
        Migration("11-progress-off-the-job-row", [
            """
            CREATE TABLE job_progress (
                job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                shard integer NOT NULL,
                fraction double precision NOT NULL,
                progress bytea NOT NULL,
                updated_at double precision NOT NULL,
                PRIMARY KEY (job_id, shard)
            )
            """,
            "ALTER TABLE jobs ADD COLUMN progressed boolean NOT NULL DEFAULT false",
            "UPDATE jobs SET progressed = chunks_done > 0",
            "ALTER TABLE jobs DROP COLUMN chunks_done",
        ]),
        // Claims that do not wait for the WAL flush: a claim lost in a crash hands its epoch out
        // again, so each claim also gets a random token (``ChunkLease/token``) that renewals,
        // commits, failures and releases must match and that names the claim's output.
        Migration("12-claim-tokens", [
            "ALTER TABLE chunks ADD COLUMN lease_token text",
        ]),
        // The keys of calls applied once even when run again after a lost reply (a journal entry,
        // a state change): a call's transaction records its key first and does nothing if it is
        // there. Forgotten when no run again can need them (``PostgresJobStore/forgetOldCalls(on:)``).
        Migration("13-applied-calls", [
            "CREATE TABLE applied_calls (key text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
        ]),
        // Counters of the owed work (``JobStore/owedWork(of:)``), so that a worker costing the chunk
        // it commits reads a few rows instead of every owed chunk's plan. Triggers see every path
        // that plans, lands, resets or removes a chunk; the package stage (index -1) is not counted.
        // Like `job_progress`, the counters are spread over 16 rows a stage by chunk index, so that
        // commits of neighbouring chunks lock no row in common. A row's last chunk leaves exactly
        // nothing, whatever rounding the subtractions left.
        Migration("14-owed-work-counters", [
            """
            CREATE TABLE job_owed_work (
                job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                shard integer NOT NULL,
                stage text NOT NULL,
                work double precision NOT NULL,
                chunks bigint NOT NULL,
                PRIMARY KEY (job_id, shard, stage)
            )
            """,
            """
            INSERT INTO job_owed_work (job_id, shard, stage, work, chunks)
            SELECT job_id, idx % 16, convert_from(plan, 'UTF8')::jsonb ->> 'stage',
                sum(COALESCE((convert_from(plan, 'UTF8')::jsonb ->> 'work')::double precision, 1)), count(*)
            FROM chunks WHERE idx >= 0 AND NOT done GROUP BY 1, 2, 3
            """,
            """
            CREATE FUNCTION mediajob_count_owed_work() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            DECLARE
                v_chunk chunks;
                v_plan jsonb;
                v_work double precision;
                v_owed boolean := TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NOT NEW.done);
            BEGIN
                IF v_owed THEN v_chunk := NEW; ELSE v_chunk := OLD; END IF;
                v_plan := convert_from(v_chunk.plan, 'UTF8')::jsonb;
                v_work := COALESCE((v_plan ->> 'work')::double precision, 1);
                IF v_owed THEN
                    INSERT INTO job_owed_work AS o (job_id, shard, stage, work, chunks)
                    VALUES (v_chunk.job_id, v_chunk.idx % 16, v_plan ->> 'stage', v_work, 1)
                    ON CONFLICT (job_id, shard, stage) DO UPDATE SET work = o.work + excluded.work, chunks = o.chunks + 1;
                ELSE
                    UPDATE job_owed_work o
                    SET work = CASE WHEN o.chunks > 1 THEN GREATEST(0, o.work - v_work) ELSE 0 END, chunks = o.chunks - 1
                    WHERE o.job_id = v_chunk.job_id AND o.shard = v_chunk.idx % 16 AND o.stage = v_plan ->> 'stage';
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER owed_work_planned AFTER INSERT ON chunks FOR EACH ROW
                WHEN (NEW.idx >= 0 AND NOT NEW.done) EXECUTE FUNCTION mediajob_count_owed_work()
            """,
            """
            CREATE TRIGGER owed_work_done_or_reset AFTER UPDATE OF done ON chunks FOR EACH ROW
                WHEN (NEW.idx >= 0 AND OLD.done IS DISTINCT FROM NEW.done) EXECUTE FUNCTION mediajob_count_owed_work()
            """,
            """
            CREATE TRIGGER owed_work_removed AFTER DELETE ON chunks FOR EACH ROW
                WHEN (OLD.idx >= 0 AND NOT OLD.done) EXECUTE FUNCTION mediajob_count_owed_work()
            """,
        ]),
        // Longest chunks claimed first (``ClaimOrder``): each chunk's rank in claim order, fixed when
        // its job is planned; chunks stored before this migration keep index order. The index of
        // unfinished chunks in claim order is rebuilt on the rank.
        Migration("15-claim-ranks", [
            "ALTER TABLE chunks ADD COLUMN claim_rank integer NOT NULL DEFAULT 0",
            "UPDATE chunks SET claim_rank = idx",
            "DROP INDEX chunks_unfinished_in_claim_order",
            "CREATE INDEX chunks_unfinished_by_claim_rank ON chunks (job_id, (idx < 0), claim_rank, idx) WHERE NOT done",
        ]),
        // Planned chunks are counted as owed work by the submission (or replan) that stores them,
        // in one statement over all of them (``PostgresJobStore/Statements/countPlannedWork``): the
        // trigger of migration 14 ran once a chunk inserted, about 0.2 ms each, which more than
        // tripled the time to submit 20,000 chunks. Landing, resetting and removing stay with the
        // triggers.
        Migration("16-owed-work-counted-by-submission", [
            "DROP TRIGGER owed_work_planned ON chunks",
        ]),
        // A claim's first free chunk of a job is found by walking the index of unfinished chunks in
        // claim order, whatever the planner's statistics of `chunks` say: taken before a big job
        // was stored (or never), they let the planner read and sort all of the job's unfinished chunks
        // instead, about 11 ms a claim at 3,000 of them. The function's settings rule out every
        // other plan for its statements; it is planned with them once a session (PL/pgSQL's cached plan).
        Migration("17-claims-walk-the-index", [
            """
            CREATE FUNCTION mediajob_first_free_chunk(p_job text, p_worker text)
            RETURNS TABLE (free_idx integer, free_previous_owner text) LANGUAGE plpgsql ROWS 1
            SET search_path FROM CURRENT SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off
            AS $$
            BEGIN
                RETURN QUERY
                SELECT c.idx, c.lease_owner
                FROM chunks c
                WHERE c.job_id = p_job AND NOT c.done AND NOT c.failed
                    AND (c.lease_owner IS NULL OR c.lease_expires_at <= now())
                    AND (c.failed_by IS DISTINCT FROM p_worker OR c.lease_expires_at IS NULL OR c.lease_expires_at <= now())
                    AND (c.idx >= 0 OR (SELECT o.idx < 0 FROM chunks o WHERE o.job_id = p_job AND NOT o.done AND NOT o.failed
                                        ORDER BY o.idx < 0, o.claim_rank, o.idx LIMIT 1))
                ORDER BY c.idx < 0, c.claim_rank, c.idx
                LIMIT 1
                FOR UPDATE OF c SKIP LOCKED;
            END
            $$
            """,
        ]),
    ]

    /// How many migrations a store needs for ``PostgresJobStore/applyingOnce(_:)``'s table.
    static let appliedCallsMigration = 1 + (migrations.firstIndex { $0.name == "13-applied-calls" } ?? migrations.count)

    /// How many migrations a store needs for chunks' ranks in claim order (``ClaimOrder``).
    static let claimRanksMigration = 1 + (migrations.firstIndex { $0.name == "15-claim-ranks" } ?? migrations.count)

    /// How many migrations a store needs to count planned chunks' owed work itself, rather than by
    /// migration 14's trigger.
    static let countedPlansMigration = 1 + (migrations.firstIndex { $0.name == "16-owed-work-counted-by-submission" }
        ?? migrations.count)

    /// How many migrations a store needs for claims that walk the index of unfinished chunks whatever
    /// the statistics (``PostgresJobStore/Statements/claimChunk``).
    static let claimsWalkTheIndexMigration = 1 + (migrations.firstIndex { $0.name == "17-claims-walk-the-index" }
        ?? migrations.count)

    /// The runner for the first `count` migrations (all by default; fewer to make an older store in tests).
    static func runner(through count: Int = migrations.count) -> MigrationRunner {
        MigrationRunner(Array(migrations.prefix(count)), table: "mediajob_schema_migrations")
    }
}
