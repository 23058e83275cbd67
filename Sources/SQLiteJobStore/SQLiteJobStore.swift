import Foundation
import JobEngine
import TaskContract

/// The embedded ``JobStore``: one SQLite database in WAL mode, shared by every process that
/// uses the same state folder. Each method is one transaction. Worker processes sharing the state
/// folder share its jobs' chunks under leases (``LeasingJobStore``, in SQLiteJobStore+Leases.swift).
public final class SQLiteJobStore: JobStore {
    private let connection: SQLiteDatabase
    private let lock = NSLock()
    /// Whether the schema keeps job settings in `job_specs` (version 12 on), out of the `jobs` row
    /// that every checkpoint updates. Only migration tests open a store at an older version.
    private let specsApart: Bool
    /// The database file.
    public let path: String
    /// Whether the schema ranks chunks in claim order (``ClaimOrder``): always, but in a store
    /// opened at an older version in tests.
    private let ranksClaims: Bool

    /// Opens or creates the store at `path` (and its folder) and brings its schema up to date.
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is damaged, ``SQLiteStoreError`` when it
    ///   is newer than this program.
    public convenience init(path: String) throws {
        try self.init(path: path, schemaVersion: SQLiteSchema.latest)
    }

    /// Opens the store at an older schema version (for migration tests).
    init(path: String, schemaVersion: Int) throws {
        try DurableFiles.makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent())
        let database = try SQLiteDatabase(path: path)
        try SQLiteSchema.migrate(database, to: schemaVersion)
        self.connection = database
        self.path = path
        self.ranksClaims = schemaVersion >= SQLiteSchema.claimRanksVersion
        specsApart = schemaVersion >= SQLiteSchema.specsApartVersion
    }

    /// The schema version of the open database.
    public var schemaVersion: Int {
        get throws { try read { try SQLiteSchema.userVersion($0) } }
    }

    /// Runs SQLite's `PRAGMA integrity_check`; `["ok"]` when the file is sound.
    public func integrityCheck() throws -> [String] {
        try read { try $0.prepare("PRAGMA integrity_check").rows([]) { try $0.text("integrity_check") } }
    }

    public func insert(_ job: JobRecord, chunks: [PlannedChunk]) throws -> JobRecord {
        try write { database in
            let sequence = try Self.nextQueueSequence(database)
            var job = job
            job.queueSequence = sequence
            try database.prepare("""
                INSERT INTO jobs (id, identifier, kind, request, spec, work_key, destination, workspace, overwrite,
                    parallelism, state, failure, rejection, message, progress, queue_seq, created_at, updated_at,
                    owner_pid)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
                """).run(try JobRow.values(for: job, specsApart: specsApart))
            if specsApart {
                try database.prepare("INSERT INTO job_specs (job_id, spec) VALUES (?1, ?2)").run([.text(job.id.rawValue), .blob(job.spec)])
            }
            let insertChunk = try ChunkInserter(job.id, ranked: ranksClaims, in: database)
            let ranks = ClaimOrder.ranks(of: chunks, costs: job.progress.costs)
            for (index, chunk) in chunks.enumerated() {
                try insertChunk(chunk, at: index, rank: ranks[index])
            }
            try insertChunk(ChunkLease.packageChunk, at: ChunkLease.packageIndex, rank: ChunkLease.packageIndex)
            try Self.append(JournalEntry(jobID: job.id, event: .submitted, detail: ["chunks": String(chunks.count)]), to: database)
            return job
        }
    }

    public func job(_ id: JobID) throws -> JobRecord? {
        try read {
            try $0.prepare("SELECT \(JobRow.columns(specsApart: specsApart)) FROM jobs WHERE id = ?1")
                .rows([.text(id.rawValue)], JobRow.record).first
        }
    }

    public func jobs() throws -> [JobRecord] {
        try read { try $0.prepare("SELECT \(JobRow.columns(specsApart: specsApart)) FROM jobs ORDER BY queue_seq").rows([], JobRow.record) }
    }

    public func finishedWorkspaces() throws -> [(id: JobID, workspace: String)] {
        try read {
            try $0.prepare("SELECT id, workspace FROM jobs WHERE state IN ('completed', 'discarded', 'rejected') ORDER BY queue_seq")
                .rows { (JobID(rawValue: try $0.text("id")), try $0.text("workspace")) }
        }
    }

    public func unfinishedJob(workKey: String) throws -> JobRecord? {
        try read { database in
            try database.prepare("""
                SELECT \(JobRow.columns(specsApart: specsApart)) FROM jobs
                WHERE work_key = ?1 AND state NOT IN ('completed', 'discarded', 'rejected')
                ORDER BY queue_seq LIMIT 1
                """).rows([.text(workKey)], JobRow.record).first
        }
    }

    public func chunks(of id: JobID) throws -> [ChunkRecord] {
        try selectChunks(of: id, from: 0, limit: -1)
    }

    public func chunks(of id: JobID, from start: Int, limit: Int) throws -> [ChunkRecord] {
        try selectChunks(of: id, from: start, limit: max(0, limit))
    }

    /// The job's chunks from index `start` on, at most `limit` of them (all when `limit` is negative).
    private func selectChunks(of id: JobID, from start: Int, limit: Int) throws -> [ChunkRecord] {
        try read { database in
            try database.prepare("""
                SELECT idx, plan, done, cost_s, executor, output FROM chunks
                WHERE job_id = ?1 AND idx >= 0 AND idx >= ?2 ORDER BY idx LIMIT ?3
                """)
                .rows([.text(id.rawValue), .integer(Int64(start)), .integer(Int64(limit))]) { row in
                    ChunkRecord(index: Int(try row.integer("idx")), plan: try JobRow.decode(PlannedChunk.self, row.blob("plan")),
                                isDone: try row.integer("done") != 0, costSeconds: try row.optionalReal("cost_s"),
                                executor: try row.optionalText("executor"), output: try row.optionalText("output"))
                }
        }
    }

    /// The owed work as the schema's triggers count it (``SQLiteSchema``, version 10): a row a stage.
    public func owedWork(of id: JobID) throws -> OwedWork {
        try read { database in
            let sums = try database.prepare("SELECT stage, work, chunks FROM owed_work WHERE job_id = ?1 AND chunks > 0")
                .rows([.text(id.rawValue)]) { row in
                    (Stage(rawValue: try row.text("stage")), OwedWork.Sum(work: try row.real("work"), chunks: Int(try row.integer("chunks"))))
                }
            return OwedWork(Dictionary(sums) { first, _ in first })
        }
    }

    public func executorCounts(of id: JobID) throws -> [String: Int] {
        try read { database in
            let pairs = try database.prepare("""
                SELECT executor, COUNT(*) AS chunks FROM chunks WHERE job_id = ?1 AND executor IS NOT NULL GROUP BY executor
                """).rows([.text(id.rawValue)]) { (try $0.text("executor"), Int(try $0.integer("chunks"))) }
            return Dictionary(pairs) { first, _ in first }
        }
    }

    public func checkpoint(_ checkpoint: Checkpoint) throws {
        try self.checkpoint([checkpoint])
    }

    /// Records the checkpoints in one transaction: one sync of the log for all of them.
    public func checkpoint(_ checkpoints: [Checkpoint]) throws {
        guard !checkpoints.isEmpty else { return }
        try write { database in
            for checkpoint in checkpoints {
                let first = try Self.isFirstDone(checkpoint.jobID, in: database)
                try FaultPoints.step(.checkpoint, operation: "checkpoint", path: path) {
                    try database.prepare("""
                        UPDATE chunks SET done = 1, cost_s = ?3, executor = ?4, done_at = ?5 WHERE job_id = ?1 AND idx = ?2 AND idx >= 0
                        """).run([JobID.text(checkpoint.jobID), .integer(Int64(checkpoint.chunkIndex)), .real(checkpoint.costSeconds),
                                  .optional(checkpoint.executor), .real(Date().timeIntervalSince1970)])
                    guard database.changes == 1 else { throw JobStoreError.noSuchChunk(checkpoint.jobID, index: checkpoint.chunkIndex) }
                }
                try Self.record(checkpoint, progress: checkpoint.progress, firstDone: first, in: database)
            }
        }
    }

    public func recordBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?) throws {
        try write { try Self.replaceBadItems(items, outcome: outcome, of: id, chunk: chunk, in: $0) }
    }

    public func badItems(of id: JobID) throws -> [BadItem] {
        try read { database in
            // Chunks in order, then the package stage (NULL sorts first in SQLite, hence the flag).
            try database.prepare("""
                SELECT chunk_idx, item, reason, outcome FROM bad_items WHERE job_id = ?1
                ORDER BY chunk_idx IS NULL, chunk_idx, position
                """).rows([.text(id.rawValue)]) { row in
                    BadItem(item: try row.text("item"), reason: try row.text("reason"),
                            outcome: try JobRow.known(BadItem.Outcome.self, row.text("outcome"), column: "bad item outcome",
                                                      job: id.rawValue),
                            chunkIndex: try row.optionalInteger("chunk_idx").map { Int($0) })
                }
        }
    }

    public func transition(_ id: JobID, to change: StateChange, journal event: JournalEntry?) throws {
        try write { try Self.apply(change, to: id, journal: event, in: $0) }
    }

    public func remove(_ id: JobID) throws {
        try write { database in
            for table in ["journal", "bad_items", "chunks", "owed_work", "cancel_requests"] + (specsApart ? ["job_specs"] : []) {
                try database.prepare("DELETE FROM \(table) WHERE job_id = ?1").run([.text(id.rawValue)])
            }
            try database.prepare("DELETE FROM jobs WHERE id = ?1").run([.text(id.rawValue)])
        }
    }

    public func resetChunks(of id: JobID, progress: ProgressSnapshot) throws {
        try write { database in
            try database.prepare("""
                UPDATE chunks SET done = 0, cost_s = NULL, executor = NULL, done_at = NULL, output = NULL, lease_owner = NULL,
                    lease_expires_at = NULL, failures = 0, failed = 0, failure = NULL, failed_by = NULL,
                    ran_by = NULL
                WHERE job_id = ?1
                """)
                .run([.text(id.rawValue)])
            try database.prepare("DELETE FROM bad_items WHERE job_id = ?1").run([.text(id.rawValue)])
            try database.prepare("UPDATE jobs SET progress = ?2 WHERE id = ?1").run([.text(id.rawValue), .blob(try JobRow.encode(progress))])
        }
    }

    public func replan(_ replan: Replan) throws {
        try write { database in
            let id = JobID.text(replan.jobID)
            try database.prepare("UPDATE jobs SET work_key = ?2, progress = ?3, updated_at = ?4 WHERE id = ?1")
                .run([id, .text(replan.workKey), .blob(try JobRow.encode(replan.progress)), .real(Date().timeIntervalSince1970)])
            guard database.changes == 1 else { throw JobStoreError.noSuchJob(replan.jobID) }
            try database.prepare("UPDATE \(specsApart ? "job_specs SET spec = ?2 WHERE job_id" : "jobs SET spec = ?2 WHERE id") = ?1")
                .run([id, .blob(replan.spec)])
            try database.prepare("DELETE FROM chunks WHERE job_id = ?1 AND idx >= 0 AND done = 0").run([id])
            let redo = try database.prepare("DELETE FROM chunks WHERE job_id = ?1 AND idx = ?2")
            for index in replan.redoing.sorted() { try redo.run([id, .integer(Int64(index))]) }
            try database.prepare("""
                DELETE FROM bad_items WHERE job_id = ?1
                    AND (chunk_idx IS NULL OR chunk_idx NOT IN (SELECT idx FROM chunks WHERE job_id = ?1))
                """).run([id])
            let first = try database.prepare("SELECT COALESCE(MAX(idx), -1) + 1 AS next FROM chunks WHERE job_id = ?1")
                .rows([id]) { try $0.integer("next") }.first ?? 0
            let insertChunk = try ChunkInserter(replan.jobID, ranked: ranksClaims, in: database)
            let ranks = ClaimOrder.ranks(of: replan.chunks, costs: replan.progress.costs)
            for (offset, chunk) in replan.chunks.enumerated() {
                try insertChunk(chunk, at: Int(first) + offset, rank: Int(first) + ranks[offset])
            }
            try Self.append(replan.journalEntry, to: database)
        }
    }

    public func requestCancel(_ id: JobID) throws {
        try write { try $0.prepare("INSERT OR IGNORE INTO cancel_requests (job_id, requested_at) VALUES (?1, ?2)")
            .run([.text(id.rawValue), .real(Date().timeIntervalSince1970)]) }
    }

    public func isCancelRequested(_ id: JobID) throws -> Bool {
        try read { try Self.isCancelRequested(id, in: $0) }
    }

    /// Whether a stop of job `id` was asked for and not yet acted on, inside the caller's transaction.
    static func isCancelRequested(_ id: JobID, in database: SQLiteDatabase) throws -> Bool {
        try !database.prepare("SELECT 1 FROM cancel_requests WHERE job_id = ?1").rows([.text(id.rawValue)]) { _ in true }.isEmpty
    }

    public func costHistory(kind: String) throws -> [Stage: Double] {
        try read { database in
            let pairs = try database.prepare("SELECT stage, seconds_per_work FROM cost_history WHERE kind = ?1")
                .rows([.text(kind)]) { (Stage(rawValue: try $0.text("stage")), try $0.real("seconds_per_work")) }
            return Dictionary(pairs) { _, last in last }
        }
    }

    public func journal(of id: JobID) throws -> [JournalEntry] {
        try read { database in
            try database.prepare("SELECT at, event, detail, stored_at FROM journal WHERE job_id = ?1 ORDER BY seq")
                .rows([.text(id.rawValue)]) { row in
                JournalEntry(jobID: id, at: Date(timeIntervalSince1970: try row.real("at")),
                             event: try JobRow.known(JournalEntry.Event.self, row.text("event"), column: "journal event",
                                                     job: id.rawValue),
                             detail: try JobRow.decode([String: String].self, Data(row.text("detail").utf8)),
                             storedAt: try row.optionalReal("stored_at").map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func append(_ entry: JournalEntry) throws {
        try write { try Self.append(entry, to: $0) }
    }

    // MARK: - Helpers

    /// Sets a job's state and what goes with it, and journals `event`, inside the caller's transaction.
    /// - Throws: ``JobStoreError/noSuchJob(_:)``.
    static func apply(_ change: StateChange, to id: JobID, journal event: JournalEntry?, in database: SQLiteDatabase) throws {
        let key = JobID.text(id)
        let now = Date().timeIntervalSince1970
        if change.state == .queued {
            try database.prepare("UPDATE jobs SET queue_seq = ?2 WHERE id = ?1 AND state <> 'queued'")
                .run([key, .integer(try Self.nextQueueSequence(database))])
        }
        if change.state.isLive {
            // A stopped job resumed: its failed chunks (``ChunkFailure``) are to be claimed afresh.
            try database.prepare("""
                UPDATE chunks SET failures = 0, failed = 0, failure = NULL, failed_by = NULL
                WHERE job_id = ?1 AND done = 0 AND (failed OR failures > 0)
                    AND (SELECT state FROM jobs WHERE id = ?1) NOT IN ('queued', 'running')
                """).run([key])
        }
        try database.prepare("""
            UPDATE jobs SET state = ?2, failure = ?3, rejection = ?4, message = ?5, updated_at = ?6,
                owner_pid = COALESCE(?7, owner_pid) WHERE id = ?1
            """).run([key, .text(change.state.rawValue), .optional(change.failure?.rawValue),
                      .optional(change.rejection?.rawValue), .optional(change.message), .real(now),
                      change.ownerPID.map { .integer(Int64($0)) } ?? .null])
        guard database.changes == 1 else { throw JobStoreError.noSuchJob(id) }
        if let progress = change.progress {
            try database.prepare("UPDATE jobs SET progress = ?2 WHERE id = ?1").run([key, .blob(try JobRow.encode(progress))])
            if change.state == .completed, let kind = try Self.kind(of: id, in: database) {
                try Self.learn(progress.costs.estimates, kind: kind, in: database)
            }
        }
        if change.clearsCancel {
            try database.prepare("DELETE FROM cancel_requests WHERE job_id = ?1").run([key])
        }
        if let event { try Self.append(event, to: database) }
    }

    /// Whether no chunk of the job is done yet. The search stops at the first done one, in index
    /// order, where chunks mostly land first; counting them all made every checkpoint as slow as
    /// the job is long.
    static func isFirstDone(_ id: JobID, in database: SQLiteDatabase) throws -> Bool {
        try database.prepare("SELECT EXISTS (SELECT 1 FROM chunks WHERE job_id = ?1 AND idx >= 0 AND done = 1) AS any")
            .rows([.text(id.rawValue)]) { try $0.integer("any") }.first == 0
    }

    /// Stores the job's progress and the items the chunk skipped, learns the chunk's cost, and
    /// journals the checkpoint (and the job's first progress), with `detail` added to the
    /// checkpoint's entry, inside the caller's transaction.
    static func record(_ checkpoint: Checkpoint, progress: ProgressSnapshot, firstDone: Bool, detail: [String: String] = [:],
                       in database: SQLiteDatabase) throws {
        try replaceBadItems(checkpoint.skipped, outcome: .skipped, of: checkpoint.jobID, chunk: checkpoint.chunkIndex, in: database)
        try database.prepare("UPDATE jobs SET progress = ?2, updated_at = ?3 WHERE id = ?1")
            .run([JobID.text(checkpoint.jobID), .blob(try JobRow.encode(progress)), .real(Date().timeIntervalSince1970)])
        try learn([checkpoint.stage: checkpoint.progress.costs.estimate(for: checkpoint.stage)], kind: checkpoint.kind, in: database)
        if firstDone { try append(JournalEntry(jobID: checkpoint.jobID, event: .progressFirst), to: database) }
        try append(JournalEntry(jobID: checkpoint.jobID, event: .checkpoint, detail: detail.merging([
            "chunk": String(checkpoint.chunkIndex),
            "fraction": String(format: "%.4f", progress.fraction),
        ]) { $1 }), to: database)
    }

    func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    func write<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try read { database in try database.transaction { try body(database) } }
    }

    static func append(_ entry: JournalEntry, to database: SQLiteDatabase) throws {
        try database.prepare("INSERT INTO journal (job_id, at, event, detail) VALUES (?1, ?2, ?3, ?4)")
            .run([.text(entry.jobID.rawValue), .real(entry.at.timeIntervalSince1970), .text(entry.event.rawValue),
                  .text(String(decoding: try JobRow.encode(entry.detail), as: UTF8.self))])
    }

    /// Replaces the bad items of one chunk (or of the package stage, `chunk` nil) with `items`.
    static func replaceBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?,
                                in database: SQLiteDatabase) throws {
        let chunkValue: SQLiteValue = chunk.map { .integer(Int64($0)) } ?? .null
        try database.prepare("DELETE FROM bad_items WHERE job_id = ?1 AND chunk_idx IS ?2").run([.text(id.rawValue), chunkValue])
        let insert = try database.prepare("""
            INSERT INTO bad_items (job_id, chunk_idx, position, item, reason, outcome) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        for (position, item) in items.enumerated() {
            try insert.run([.text(id.rawValue), chunkValue, .integer(Int64(position)), .text(item.item), .text(item.reason),
                            .text(outcome.rawValue)])
        }
    }

    private static func learn(_ estimates: [Stage: Double], kind: String, in database: SQLiteDatabase) throws {
        let upsert = try database.prepare("""
            INSERT INTO cost_history (kind, stage, seconds_per_work, updated_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (kind, stage) DO UPDATE SET seconds_per_work = excluded.seconds_per_work,
                updated_at = excluded.updated_at
            """)
        for (stage, seconds) in estimates {
            try upsert.run([.text(kind), .text(stage.rawValue), .real(seconds), .real(Date().timeIntervalSince1970)])
        }
    }

    private static func kind(of id: JobID, in database: SQLiteDatabase) throws -> String? {
        try database.prepare("SELECT kind FROM jobs WHERE id = ?1").rows([.text(id.rawValue)]) { try $0.text("kind") }.first
    }

    private static func nextQueueSequence(_ database: SQLiteDatabase) throws -> Int64 {
        try database.prepare("SELECT COALESCE(MAX(queue_seq), 0) + 1 AS next FROM jobs").rows { try $0.integer("next") }.first ?? 1
    }
}

extension JobID {
    static func text(_ id: JobID) -> SQLiteValue { .text(id.rawValue) }
}

/// Stores a job's chunks, each with its rank in claim order (``ClaimOrder``) where the schema has ranks.
private struct ChunkInserter {
    let job: JobID
    let statement: SQLiteStatement
    let ranked: Bool

    init(_ job: JobID, ranked: Bool, in database: SQLiteDatabase) throws {
        self.job = job
        self.ranked = ranked
        statement = try database.prepare(ranked ? "INSERT INTO chunks (job_id, idx, plan, claim_rank) VALUES (?1, ?2, ?3, ?4)"
                                                : "INSERT INTO chunks (job_id, idx, plan) VALUES (?1, ?2, ?3)")
    }

    func callAsFunction(_ chunk: PlannedChunk, at index: Int, rank: Int) throws {
        let values: [SQLiteValue] = [.text(job.rawValue), .integer(Int64(index)), .blob(try JobRow.encode(chunk))]
        try statement.run(ranked ? values + [.integer(Int64(rank))] : values)
    }
}
