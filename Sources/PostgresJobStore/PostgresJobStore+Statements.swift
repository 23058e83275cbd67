import Postgres

extension PostgresJobStore {
    /// Every statement the store runs, prepared once per connection; values always go in parameters.
    enum Statements {
        static let insertJob = PreparedStatement("mediajob_insert_job", """
            INSERT INTO jobs (id, identifier, kind, request, spec, work_key, destination, workspace, overwrite,
                state, failure, rejection, message, progress, queue_seq, created_at, updated_at, owner_pid)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
            """)
        /// `$4` the chunk's rank in claim order (``ClaimOrder``).
        static let insertChunk = PreparedStatement(
            "mediajob_insert_chunk", "INSERT INTO chunks (job_id, idx, plan, claim_rank) VALUES ($1, $2, $3, $4)")
        /// A chunk in a store made before chunks were ranked (``PostgresSchema/claimRanksMigration``), in tests.
        static let insertUnrankedChunk = PreparedStatement(
            "mediajob_insert_unranked_chunk", "INSERT INTO chunks (job_id, idx, plan) VALUES ($1, $2, $3)")
        static let job = PreparedStatement(
            "mediajob_job", "SELECT \(PostgresJobRow.columns) FROM jobs WHERE id = $1")
        static let jobs = PreparedStatement(
            "mediajob_jobs", "SELECT \(PostgresJobRow.columns) FROM jobs ORDER BY queue_seq")
        static let finishedWorkspaces = PreparedStatement("mediajob_finished_workspaces", """
            SELECT id, workspace FROM jobs WHERE state IN ('completed', 'discarded', 'rejected') ORDER BY queue_seq
            """)
        static let unfinishedJob = PreparedStatement("mediajob_unfinished_job", """
            SELECT \(PostgresJobRow.columns) FROM jobs
            WHERE work_key = $1 AND state NOT IN ('completed', 'discarded', 'rejected')
            ORDER BY queue_seq LIMIT 1
            """)
        static let chunks = PreparedStatement(
            "mediajob_chunks", "SELECT idx, plan, done, cost_s, executor, output FROM chunks WHERE job_id = $1 AND idx >= 0 ORDER BY idx")
        static let chunksPage = PreparedStatement("mediajob_chunks_page", """
            SELECT idx, plan, done, cost_s, executor, output FROM chunks
            WHERE job_id = $1 AND idx >= 0 AND idx >= $2 ORDER BY idx LIMIT $3
            """)
        /// Counts the chunks of job `$1` from index `$2` on, not done, as owed work (migration 16):
        /// those a submission or replan just stored, in one statement.
        static let countPlannedWork = PreparedStatement("mediajob_count_planned_work", """
            INSERT INTO job_owed_work AS o (job_id, shard, stage, work, chunks)
            SELECT job_id, idx % 16, convert_from(plan, 'UTF8')::jsonb ->> 'stage',
                sum(COALESCE((convert_from(plan, 'UTF8')::jsonb ->> 'work')::double precision, 1)), count(*)
            FROM chunks WHERE job_id = $1 AND idx >= $2 AND NOT done GROUP BY 1, 2, 3
            ON CONFLICT (job_id, shard, stage) DO UPDATE SET work = o.work + excluded.work, chunks = o.chunks + excluded.chunks
            """)
        /// Job `$1`'s owed work by stage, from its counters.
        private static let owedSums = """
            SELECT stage, sum(work) AS work, sum(chunks)::bigint AS chunks FROM job_owed_work
            WHERE job_id = $1 AND chunks > 0 GROUP BY stage
            """
        static let owedWork = PreparedStatement("mediajob_owed_work", owedSums)
        /// The job's progress (``PostgresJobRow/progress``) on every row, beside ``owedWork``'s rows;
        /// one row with no stage when nothing is owed, none when there is no such job.
        static let progressAndOwedWork = PreparedStatement("mediajob_progress_and_owed_work", """
            SELECT \(PostgresJobRow.progress) AS progress, owed.stage, owed.work, owed.chunks
            FROM jobs LEFT JOIN (\(owedSums)) owed ON true
            WHERE jobs.id = $1
            """)
        /// Locks the job's row, which orders the checkpoints of one job, and reads whether any of its
        /// chunks is done.
        static let lockJob = PreparedStatement("mediajob_lock_job", "SELECT progressed FROM jobs WHERE id = $1 FOR UPDATE")
        /// Marks a chunk done (again, if it was: "already done" is tolerated) and says whether it was.
        static let markDone = PreparedStatement("mediajob_mark_done", """
            UPDATE chunks c SET done = true, cost_s = $3, executor = $4, done_at = $5
            FROM chunks before
            WHERE c.job_id = $1 AND c.idx = $2 AND c.idx >= 0 AND before.job_id = c.job_id AND before.idx = c.idx
            RETURNING before.done AS was_done
            """)
        static let markProgressed = PreparedStatement(
            "mediajob_mark_progressed", "UPDATE jobs SET progressed = true WHERE id = $1 AND NOT progressed")
        /// Looks again whether any of the job's chunks is done, after a replan removed some.
        static let recheckProgressed = PreparedStatement("mediajob_recheck_progressed", """
            UPDATE jobs SET progressed = EXISTS (SELECT 1 FROM chunks WHERE job_id = $1 AND idx >= 0 AND done) WHERE id = $1
            """)
        /// Forgets the progress the job's chunks committed (``PostgresJobStore/progressShards``): a
        /// reset or a replan sets the job's progress anew, and it may rightly go back.
        static let forgetCommittedProgress = PreparedStatement(
            "mediajob_forget_committed_progress", "DELETE FROM job_progress WHERE job_id = $1")
        static let setProgress = PreparedStatement(
            "mediajob_set_progress", "UPDATE jobs SET progress = $2, updated_at = $3 WHERE id = $1")
        /// Gives a stopped job's failed chunks (``ChunkFailure``) back to be claimed afresh, as it
        /// is resumed: `$1` the job, `$2` the state it is moving to.
        static let retryFailedChunks = PreparedStatement("mediajob_retry_failed_chunks", """
            UPDATE chunks c SET failures = 0, failed = false, failure = NULL, failed_by = NULL
            FROM jobs j
            WHERE c.job_id = $1 AND j.id = $1 AND NOT c.done AND (c.failed OR c.failures > 0)
                AND j.state NOT IN ('queued', 'running') AND $2 IN ('queued', 'running')
            """)
        static let requeue = PreparedStatement(
            "mediajob_requeue", "UPDATE jobs SET queue_seq = $2 WHERE id = $1 AND state <> 'queued'")
        static let setState = PreparedStatement("mediajob_set_state", """
            UPDATE jobs SET state = $2, failure = $3, rejection = $4, message = $5, updated_at = $6,
                owner_pid = COALESCE($7, owner_pid)
            WHERE id = $1
            """)
        static let kind = PreparedStatement("mediajob_kind", "SELECT kind FROM jobs WHERE id = $1")
        static let clearCancel = PreparedStatement("mediajob_clear_cancel", "DELETE FROM cancel_requests WHERE job_id = $1")
        static let removeJournal = PreparedStatement("mediajob_remove_journal", "DELETE FROM journal WHERE job_id = $1")
        static let removeJob = PreparedStatement("mediajob_remove_job", "DELETE FROM jobs WHERE id = $1")
        static let resetChunks = PreparedStatement("mediajob_reset_chunks", """
            WITH reset AS (
                UPDATE chunks SET done = false, cost_s = NULL, executor = NULL, done_at = NULL, output = NULL,
                    lease_owner = NULL, lease_expires_at = NULL, failures = 0, failed = false, failure = NULL, failed_by = NULL,
                    ran_by = NULL
                WHERE job_id = $1
            )
            UPDATE jobs SET progressed = false WHERE id = $1
            """)
        static let setSpec = PreparedStatement("mediajob_set_spec", """
            UPDATE jobs SET spec = $2, work_key = $3, progress = $4, updated_at = $5 WHERE id = $1
            """)
        /// The chunks a replan replaces: those not done and the done ones listed (never the package stage).
        static let removeChunksToRedo = PreparedStatement("mediajob_remove_chunks_to_redo", """
            DELETE FROM chunks WHERE job_id = $1 AND idx >= 0 AND (NOT done OR idx = ANY($2::integer[]))
            """)
        static let forgetBadItemsOfRemovedChunks = PreparedStatement("mediajob_forget_bad_items_of_removed_chunks", """
            DELETE FROM bad_items WHERE job_id = $1
                AND (chunk_idx IS NULL OR chunk_idx NOT IN (SELECT idx FROM chunks WHERE job_id = $1))
            """)
        static let nextChunkIndex = PreparedStatement(
            "mediajob_next_chunk_index", "SELECT COALESCE(MAX(idx), -1) + 1 AS next FROM chunks WHERE job_id = $1")
        static let requestCancel = PreparedStatement("mediajob_request_cancel", """
            INSERT INTO cancel_requests (job_id, requested_at) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING
            """)
        /// Announces `$2` on channel `$1` when the transaction commits (``AnnouncementListener``).
        static let announce = PreparedStatement("mediajob_announce", "SELECT pg_notify($1, $2)")
        static let isCancelRequested = PreparedStatement(
            "mediajob_is_cancel_requested", "SELECT 1 AS asked FROM cancel_requests WHERE job_id = $1")
        static let costHistory = PreparedStatement(
            "mediajob_cost_history", "SELECT stage, seconds_per_work FROM cost_history WHERE kind = $1")
        static let journal = PreparedStatement(
            "mediajob_journal", "SELECT at, event, detail, stored_at FROM journal WHERE job_id = $1 ORDER BY seq")
        static let appendJournal = PreparedStatement(
            "mediajob_append_journal", "INSERT INTO journal (job_id, at, event, detail) VALUES ($1, $2, $3, $4)")
        static let learnCost = PreparedStatement("mediajob_learn_cost", """
            INSERT INTO cost_history (kind, stage, seconds_per_work, updated_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (kind, stage) DO UPDATE SET seconds_per_work = excluded.seconds_per_work,
                updated_at = excluded.updated_at
            """)
        static let forgetBadItems = PreparedStatement(
            "mediajob_forget_bad_items", "DELETE FROM bad_items WHERE job_id = $1 AND chunk_idx IS NOT DISTINCT FROM $2")
        static let forgetAllBadItems = PreparedStatement(
            "mediajob_forget_all_bad_items", "DELETE FROM bad_items WHERE job_id = $1")
        static let insertBadItem = PreparedStatement("mediajob_insert_bad_item", """
            INSERT INTO bad_items (job_id, chunk_idx, position, item, reason, outcome) VALUES ($1, $2, $3, $4, $5, $6)
            """)
        static let badItems = PreparedStatement("mediajob_bad_items", """
            SELECT chunk_idx, item, reason, outcome FROM bad_items WHERE job_id = $1
            ORDER BY chunk_idx NULLS LAST, position
            """)
        /// Records the key of a call that must apply once (``PostgresJobStore/applyingOnce(_:)``):
        /// no row when an earlier run of the call recorded it.
        static let recordCall = PreparedStatement(
            "mediajob_record_call", "INSERT INTO applied_calls (key) VALUES ($1) ON CONFLICT (key) DO NOTHING")
        /// Whether the call with key `$1` applied (``PostgresJobStore/applyingOnceWhileHeld(_:)``).
        static let appliedCall = PreparedStatement(
            "mediajob_applied_call", "SELECT 1 AS applied FROM applied_calls WHERE key = $1")
        /// Forgets the keys of calls made longer ago than `$1` seconds, or `$2` times the longest
        /// lease of any worker listed, whichever is longer (``PostgresJobStore/forgetOldCalls(on:)``).
        static let forgetOldCalls = PreparedStatement("mediajob_forget_old_calls", """
            DELETE FROM applied_calls WHERE applied_at < now()
                - make_interval(secs => greatest($1, $2 * (SELECT COALESCE(max(lease_s), 0) FROM workers)))
            """)
        static let nextQueueSequence = PreparedStatement(
            "mediajob_next_queue_seq", "SELECT nextval('job_queue_seq') AS next")
    }
}
