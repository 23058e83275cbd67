import Foundation
import JobEngine
import Postgres
import TaskContract

/// A ``JobStore`` in PostgreSQL, shared by every process and machine that connects to the same
/// database (DESIGN.md §10).
///
/// Opened from a libpq connection string (`postgresql://user@host/db?sslmode=require`, or
/// `key=value` pairs), so `PGHOST`, `PGPASSFILE`, `~/.pgpass` and `sslmode` work as libpq documents.
/// The first process to open a database that lacks the schema, or has an older one, migrates it
/// under an advisory lock. Every statement takes parameters; each method is one short transaction,
/// and none stays open while media is processed. No error, description or journal entry names the
/// password.
///
/// One connection per store, used by one thread at a time; a connection the server or the network
/// ended is remade once per call and the call's transaction run again. A call whose COMMIT reached
/// the server but whose reply was lost is applied once all the same: the calls that would change
/// something again (a job inserted, a checkpoint, a state change, a replan, a journal entry) record
/// a key of their own in the same transaction and do nothing when they find it (``applyingOnce(_:)``);
/// a lease call answers what its first run did (a claim the lease it took, found by its token; a
/// commit by its output; a release, failure or job's end by its key, ``applyingOnceWhileHeld(_:)``);
/// the others set what they set, as often as they run.
public final class PostgresJobStore: JobStore, @unchecked Sendable {
    /// The store's one connection, remade when lost (``ReconnectingConnection``).
    private let connection: ReconnectingConnection
    /// Whether the schema has the keys of calls applied once: always, but for an older store made
    /// in tests (``init(_:settings:migrations:)``), whose calls then run as plain transactions.
    private let appliesOnce: Bool
    /// Whether the schema ranks chunks in claim order (``ClaimOrder``): always, but in a store
    /// made at an older version in tests.
    private let ranksClaims: Bool
    /// Whether submissions and replans count their chunks' owed work (``Statements/countPlannedWork``):
    /// always, but in a store made at an older version in tests, where a trigger does or nothing is counted.
    private let countsPlannedWork: Bool

    /// How long the server lets a session of the store sit inside a transaction waiting for its
    /// client: the store sends a transaction's statements back to back, so only a client cut off
    /// (or stopped) mid-transaction waits that long, and the rows it locked (a chunk it was
    /// renewing) are free again for a rescue after this, not after the server's TCP timeouts.
    /// A session ended so is remade, and its transaction run again, at its next call.
    static let idleInTransactionTimeout = Duration.seconds(5)

    /// How many rows of `job_progress` a job's chunk commits spread its progress over (a chunk's is
    /// its index modulo this): commits of chunks in different rows lock no row in common, so they
    /// wait for the WAL flush together rather than one after another, and reading a job's progress
    /// reads at most this many rows.
    static let progressShards = 16

    /// Connects and brings the schema up to date.
    /// - Parameters:
    ///   - connectionString: a libpq connection URL or `key=value` string.
    ///   - settings: run-time settings for the session (`search_path` to keep the tables in a schema of
    ///     their own, `statement_timeout`, …).
    /// - Throws: `PostgresError` when no connection can be made (naming host, port, database and user,
    ///   never the password) or a migration fails; `.unknownMigrations` when a newer program migrated
    ///   the database.
    public convenience init(_ connectionString: String, settings: [String: String] = [:]) throws {
        try self.init(connectionString, settings: settings, migrations: PostgresSchema.migrations.count)
    }

    /// Connects and applies the first `migrations` migrations (fewer than all to make an older store in tests).
    init(_ connectionString: String, settings: [String: String], migrations: Int) throws {
        let connection = try Connection(connectionString, idleInTransactionSessionTimeout: Self.idleInTransactionTimeout,
                                        settings: ["application_name": "mediajob"].merging(settings) { $1 })
        try PostgresSchema.runner(through: migrations).migrate(connection)
        self.connection = ReconnectingConnection(connection)
        appliesOnce = migrations >= PostgresSchema.appliedCallsMigration
        ranksClaims = migrations >= PostgresSchema.claimRanksMigration
        countsPlannedWork = migrations >= PostgresSchema.countedPlansMigration
    }

    /// The names of the migrations the database has had, in the order they were applied.
    public var appliedMigrations: [String] {
        get throws {
            try transaction { connection in
                try connection.query("SELECT name FROM mediajob_schema_migrations ORDER BY applied_at, name")
                    .map { try $0["name"] as String }
            }
        }
    }

    public func insert(_ job: JobRecord, chunks: [PlannedChunk]) throws -> JobRecord {
        let inserted = try applyingOnce { connection in
            var job = job
            job.queueSequence = try Self.nextQueueSequence(connection)
            try connection.query(
                Statements.insertJob, job.id.rawValue, job.request.identifier.rawValue, job.kind,
                try PostgresJobRow.encode(job.request), job.spec, job.workKey, job.destination, job.workspace,
                job.overwrite, job.state.rawValue, job.failure?.rawValue, job.rejection?.rawValue, job.message,
                try PostgresJobRow.encode(job.progress), job.queueSequence, job.createdAt.timeIntervalSince1970,
                job.updatedAt.timeIntervalSince1970, job.ownerPID.map(Int.init))
            let ranks = ClaimOrder.ranks(of: chunks, costs: job.progress.costs)
            for (index, chunk) in chunks.enumerated() {
                try insertChunk(chunk, at: index, rank: ranks[index], of: job.id, on: connection)
            }
            if countsPlannedWork { try connection.query(Statements.countPlannedWork, job.id.rawValue, 0) }
            try insertChunk(Self.packageChunk, at: Self.packageIndex, rank: Self.packageIndex, of: job.id, on: connection)
            try Self.append(JournalEntry(jobID: job.id, event: .submitted, detail: ["chunks": String(chunks.count)]),
                            on: connection)
            if appliesOnce { try Self.forgetOldCalls(on: connection) }
            if job.state.isLive { try connection.query(Statements.announce, AnnouncementListener.workChannel, job.id.rawValue) }
            return job
        }
        // Inserted by an earlier run of this call, whose reply was lost: the job as stored then.
        guard let stored = try inserted ?? self.job(job.id) else { throw JobStoreError.noSuchJob(job.id) }
        return stored
    }

    public func job(_ id: JobID) throws -> JobRecord? {
        try statement { try $0.query(Statements.job, id.rawValue).map(PostgresJobRow.record).first }
    }

    public func jobs() throws -> [JobRecord] {
        try statement { try $0.query(Statements.jobs).map(PostgresJobRow.record) }
    }

    public func finishedWorkspaces() throws -> [(id: JobID, workspace: String)] {
        try statement { try $0.query(Statements.finishedWorkspaces).map { (JobID(rawValue: try $0["id"]), try $0["workspace"]) } }
    }

    public func unfinishedJob(workKey: String) throws -> JobRecord? {
        try statement { try $0.query(Statements.unfinishedJob, workKey).map(PostgresJobRow.record).first }
    }

    public func chunks(of id: JobID) throws -> [ChunkRecord] {
        try statement { try $0.query(Statements.chunks, id.rawValue).map { try Self.chunk($0, of: id) } }
    }

    public func chunks(of id: JobID, from start: Int, limit: Int) throws -> [ChunkRecord] {
        try statement { connection in
            try connection.query(Statements.chunksPage, id.rawValue, start, max(0, limit)).map { try Self.chunk($0, of: id) }
        }
    }

    /// The owed work as the schema's triggers count it (migration `14-owed-work-counters`): at
    /// most ``progressShards`` rows a stage.
    public func owedWork(of id: JobID) throws -> OwedWork {
        try statement { connection in
            let sums = try connection.query(Statements.owedWork, id.rawValue).map { row in
                (Stage(rawValue: try row["stage"]), OwedWork.Sum(work: try row["work"], chunks: try row["chunks"]))
            }
            return OwedWork(Dictionary(sums) { first, _ in first })
        }
    }

    /// The job's progress and owed work in one statement, so one round trip.
    public func progressAndOwedWork(of id: JobID) throws -> (progress: ProgressSnapshot, owed: OwedWork) {
        try statement { connection in
            let rows = try connection.query(Statements.progressAndOwedWork, id.rawValue)
            guard let first = rows.first else { throw JobStoreError.noSuchJob(id) }
            let progress = try PostgresJobRow.decode(ProgressSnapshot.self, first["progress"], column: "progress", job: id.rawValue)
            let sums = try rows.compactMap { row -> (Stage, OwedWork.Sum)? in
                guard let stage = try row["stage"] as String? else { return nil }
                return (Stage(rawValue: stage), OwedWork.Sum(work: try row["work"], chunks: try row["chunks"]))
            }
            return (progress, OwedWork(Dictionary(sums) { first, _ in first }))
        }
    }

    /// A row of ``Statements/chunks``.
    private static func chunk(_ row: Row, of id: JobID) throws -> ChunkRecord {
        ChunkRecord(index: try row["idx"],
                    plan: try PostgresJobRow.decode(PlannedChunk.self, row["plan"], column: "chunk plan", job: id.rawValue),
                    isDone: try row["done"], costSeconds: try row["cost_s"], executor: try row["executor"],
                    output: try row["output"])
    }

    public func checkpoint(_ checkpoint: Checkpoint) throws {
        try applyingOnce { connection in
            let id = checkpoint.jobID.rawValue
            guard let progressed: Bool = try connection.query(Statements.lockJob, id).first?["progressed"] else {
                throw JobStoreError.noSuchJob(checkpoint.jobID)
            }
            let marked = try connection.query(Statements.markDone, id, checkpoint.chunkIndex, checkpoint.costSeconds,
                                              checkpoint.executor, Date().timeIntervalSince1970).first
            guard let marked else { throw JobStoreError.noSuchChunk(checkpoint.jobID, index: checkpoint.chunkIndex) }
            if try !(marked["was_done"] as Bool) {
                try connection.query(Statements.markProgressed, id)
            }
            try Self.record(checkpoint, firstDone: !progressed, on: connection)
        }
    }

    public func recordBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?) throws {
        try transaction { try Self.replaceBadItems(items, outcome: outcome, of: id, chunk: chunk, on: $0) }
    }

    public func badItems(of id: JobID) throws -> [BadItem] {
        try statement { connection in
            try connection.query(Statements.badItems, id.rawValue).map { row in
                BadItem(item: try row["item"], reason: try row["reason"],
                        outcome: try PostgresJobRow.known(BadItem.Outcome.self, row["outcome"], column: "bad item outcome",
                                                          job: id.rawValue),
                        chunkIndex: try row["chunk_idx"])
            }
        }
    }

    public func transition(_ id: JobID, to change: StateChange, journal event: JournalEntry?) throws {
        try applyingOnce { try Self.apply(change, to: id, journal: event, on: $0) }
    }

    public func remove(_ id: JobID) throws {
        try transaction { connection in
            try connection.query(Statements.removeJournal, id.rawValue)
            try connection.query(Statements.removeJob, id.rawValue) // chunks and cancel requests cascade
        }
    }

    public func resetChunks(of id: JobID, progress: ProgressSnapshot) throws {
        try transaction { connection in
            try connection.query(Statements.resetChunks, id.rawValue)
            try connection.query(Statements.forgetCommittedProgress, id.rawValue)
            try connection.query(Statements.forgetAllBadItems, id.rawValue)
            try connection.query(Statements.setProgress, id.rawValue, try PostgresJobRow.encode(progress),
                                 Date().timeIntervalSince1970)
        }
    }

    public func replan(_ replan: Replan) throws {
        try applyingOnce { connection in
            let id = replan.jobID.rawValue
            let changed = try connection.query(Statements.setSpec, id, replan.spec, replan.workKey,
                                               try PostgresJobRow.encode(replan.progress), Date().timeIntervalSince1970)
            guard changed.rowsAffected == 1 else { throw JobStoreError.noSuchJob(replan.jobID) }
            // An integer[] in PostgreSQL's text format: {3,4}.
            let redoing = "{" + replan.redoing.sorted().map(String.init).joined(separator: ",") + "}"
            try connection.query(Statements.removeChunksToRedo, id, redoing)
            try connection.query(Statements.recheckProgressed, id)
            try connection.query(Statements.forgetCommittedProgress, id)
            try connection.query(Statements.forgetBadItemsOfRemovedChunks, id)
            let first: Int = try connection.query(Statements.nextChunkIndex, id).first?["next"] ?? 0
            let ranks = ClaimOrder.ranks(of: replan.chunks, costs: replan.progress.costs)
            for (offset, chunk) in replan.chunks.enumerated() {
                try insertChunk(chunk, at: first + offset, rank: first + ranks[offset], of: replan.jobID, on: connection)
            }
            if countsPlannedWork { try connection.query(Statements.countPlannedWork, id, first) }
            try Self.append(replan.journalEntry, on: connection)
        }
    }

    /// Stores `chunk` of job `id` at `index`, ranked `rank` in claim order where the schema has ranks.
    private func insertChunk(_ chunk: PlannedChunk, at index: Int, rank: Int, of id: JobID, on connection: Connection) throws {
        if ranksClaims {
            try connection.query(Statements.insertChunk, id.rawValue, index, try PostgresJobRow.encode(chunk), rank)
        } else {
            try connection.query(Statements.insertUnrankedChunk, id.rawValue, index, try PostgresJobRow.encode(chunk))
        }
    }

    /// Records the request, and announces it to every ``AnnouncementListener`` when it commits.
    public func requestCancel(_ id: JobID) throws {
        try transaction { connection in
            try connection.query(Statements.requestCancel, id.rawValue, Date().timeIntervalSince1970)
            try connection.query(Statements.announce, AnnouncementListener.cancelChannel, id.rawValue)
        }
    }

    public func isCancelRequested(_ id: JobID) throws -> Bool {
        try statement { try !$0.query(Statements.isCancelRequested, id.rawValue).isEmpty }
    }

    public func costHistory(kind: String) throws -> [Stage: Double] {
        try statement { connection in
            let pairs = try connection.query(Statements.costHistory, kind).map {
                (Stage(rawValue: try $0["stage"]), try $0["seconds_per_work"] as Double)
            }
            return Dictionary(pairs) { _, last in last }
        }
    }

    public func journal(of id: JobID) throws -> [JournalEntry] {
        try statement { connection in
            try connection.query(Statements.journal, id.rawValue).map { row in
                JournalEntry(jobID: id, at: Date(timeIntervalSince1970: try row["at"]),
                             event: try PostgresJobRow.known(JournalEntry.Event.self, row["event"], column: "journal event",
                                                             job: id.rawValue),
                             detail: try PostgresJobRow.decode([String: String].self, Data((row["detail"] as String).utf8),
                                                               column: "journal detail", job: id.rawValue),
                             storedAt: (try row["stored_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func append(_ entry: JournalEntry) throws {
        try applyingOnce { try Self.append(entry, on: $0) }
    }

    // MARK: - Helpers

    /// Runs `body` in one transaction on the store's connection, again when it lost a race
    /// (serialization failure or deadlock, up to three tries), and once more on a remade
    /// connection when the old one was lost (``ReconnectingConnection``).
    func transaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try statement { connection in try connection.withTransaction { try body(connection) } }
    }

    /// Runs `body` in one transaction as ``transaction(_:)`` does, and applies it at most once, even
    /// when its COMMIT reached the server and only the reply was lost with the connection: the
    /// transaction first records a key made for this call, so that a run again on the remade
    /// connection finds it and changes nothing. Keys are forgotten later (``forgetOldCalls(on:)``).
    /// - Returns: what `body` returned, or `nil` when an earlier run of this call was applied.
    @discardableResult
    func applyingOnce<T>(_ body: (Connection) throws -> T) throws -> T? {
        guard appliesOnce else { return try transaction(body) }
        let key = UUID().uuidString
        return try transaction { connection in
            guard try connection.query(Statements.recordCall, key).rowsAffected == 1 else { return nil }
            return try body(connection)
        }
    }

    /// How long the key of a call applied once is kept at the least (``applyingOnce(_:)``).
    static let callKeysKept = Duration.seconds(3600)
    /// How many times the longest lease of any worker listed a call's key is kept, when that is
    /// longer than ``callKeysKept``.
    static let callKeysKeptInLeases = 10.0

    /// Forgets the keys of calls applied once that no run again can still need, inside the
    /// caller's transaction: a job's insert does this, so that commands that only read (`status`,
    /// `jobs`) write nothing.
    ///
    /// A call runs again once, as soon as it finds its connection lost: within a stalled call's
    /// `tcp_user_timeout` (10 s unless the URL sets it) and the reconnection's 25 s. A worker's lease
    /// is set well above the longest stall it should survive (README, "The lease"), so a key is
    /// kept ``callKeysKeptInLeases`` times the longest lease of any worker listed in `workers`, and
    /// at least ``callKeysKept`` for the calls of processes that are not workers. A process stopped
    /// longer than that between a call's lost reply and its run again (SIGSTOP) may find its key
    /// forgotten: a lease call then says its lease was lost, as the lease has by then; another call
    /// applies a second time.
    static func forgetOldCalls(on connection: Connection) throws {
        try connection.query(Statements.forgetOldCalls, callKeysKept.seconds, callKeysKeptInLeases)
    }

    /// Runs a lease call's `body` in one transaction as ``transaction(_:)`` does and says whether
    /// the lease still held its chunk, also when the call runs again after its reply was lost.
    /// `body` changes something only while the lease holds the chunk, and gives the chunk back
    /// when it does (a release, a failure, a job's end), so run again it can never apply twice,
    /// but it would find the lease gone and say `false` for a call that applied. So a run that
    /// applied records a key made for this call in the same transaction, and a run that finds the
    /// lease gone looks for that key (one more statement, on that path only).
    /// - Returns: whether the lease held the chunk when the call applied.
    func applyingOnceWhileHeld(_ body: (Connection) throws -> Bool) throws -> Bool {
        guard appliesOnce else { return try transaction(body) }
        let key = UUID().uuidString
        return try transaction { connection in
            guard try body(connection) else { return try !connection.query(Statements.appliedCall, key).isEmpty }
            try connection.query(Statements.recordCall, key)
            return true
        }
    }

    /// Runs `body`, which runs one statement (a transaction of its own, without `BEGIN` and `COMMIT`
    /// around it: one round trip), on the store's connection, again as ``transaction(_:)`` does.
    func statement<T>(_ body: (Connection) throws -> T) throws -> T {
        try connection.run(body)
    }

    public func stopReconnecting(at deadline: ContinuousClock.Instant) {
        connection.stopReconnecting(at: deadline)
    }

    /// For tests: the next `count` calls whose transaction committed lose their reply
    /// (``ReconnectingConnection/dropReplies(_:after:)``).
    func dropReplies(_ count: Int, after kept: Int = 0) {
        connection.dropReplies(count, after: kept)
    }

    /// Sets a job's state and what goes with it, and journals `event`, inside the caller's transaction.
    /// - Throws: ``JobStoreError/noSuchJob(_:)``.
    static func apply(_ change: StateChange, to id: JobID, journal event: JournalEntry?, on connection: Connection) throws {
        let key = id.rawValue
        let now = Date().timeIntervalSince1970
        if change.state == .queued {
            try connection.query(Statements.requeue, key, try nextQueueSequence(connection))
        }
        try connection.query(Statements.retryFailedChunks, key, change.state.rawValue)
        let changed = try connection.query(
            Statements.setState, key, change.state.rawValue, change.failure?.rawValue, change.rejection?.rawValue,
            change.message, now, change.ownerPID.map(Int.init))
        guard changed.rowsAffected == 1 else { throw JobStoreError.noSuchJob(id) }
        if let progress = change.progress {
            try connection.query(Statements.setProgress, key, try PostgresJobRow.encode(progress), now)
            if change.state == .completed, let kind: String = try connection.query(Statements.kind, key).first?["kind"] {
                try learn(progress.costs.estimates, kind: kind, on: connection)
            }
        }
        if change.clearsCancel {
            try connection.query(Statements.clearCancel, key)
        }
        if let event { try append(event, on: connection) }
        if change.state.isLive { try connection.query(Statements.announce, AnnouncementListener.workChannel, key) }
    }

    /// Stores the job's progress and the items the chunk skipped, learns the chunk's cost, and
    /// journals the checkpoint (and the job's first progress).
    private static func record(_ checkpoint: Checkpoint, firstDone: Bool, on connection: Connection) throws {
        let progress = checkpoint.progress
        try replaceBadItems(checkpoint.skipped, outcome: .skipped, of: checkpoint.jobID, chunk: checkpoint.chunkIndex,
                            on: connection)
        try connection.query(Statements.setProgress, checkpoint.jobID.rawValue, try PostgresJobRow.encode(progress),
                             Date().timeIntervalSince1970)
        try learn([checkpoint.stage: checkpoint.progress.costs.estimate(for: checkpoint.stage)], kind: checkpoint.kind,
                  on: connection)
        if firstDone { try append(JournalEntry(jobID: checkpoint.jobID, event: .progressFirst), on: connection) }
        try append(JournalEntry(jobID: checkpoint.jobID, event: .checkpoint, detail: [
            "chunk": String(checkpoint.chunkIndex),
            "fraction": String(format: "%.4f", progress.fraction),
        ]), on: connection)
    }

    /// Replaces the bad items of one chunk (or of the package stage, `chunk` nil) with `items`.
    static func replaceBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?,
                                on connection: Connection) throws {
        try connection.query(Statements.forgetBadItems, id.rawValue, chunk)
        for (position, item) in items.enumerated() {
            try connection.query(Statements.insertBadItem, id.rawValue, chunk, position, item.item, item.reason, outcome.rawValue)
        }
    }

    /// Appends `entry` inside the caller's transaction, unless an entry was appended under `key`
    /// before: a call that makes its key once and runs again after its reply was lost journals
    /// once, also when the call itself is not applied once (a refused commit, which changes nothing
    /// else). Keys are forgotten as the keys of calls applied once are (``forgetOldCalls(on:)``).
    func append(_ entry: JournalEntry, once key: String, on connection: Connection) throws {
        if appliesOnce, try connection.query(Statements.recordCall, key).rowsAffected == 0 { return }
        try Self.append(entry, on: connection)
    }

    static func append(_ entry: JournalEntry, on connection: Connection) throws {
        try connection.query(Statements.appendJournal, entry.jobID.rawValue, entry.at.timeIntervalSince1970,
                             entry.event.rawValue, String(decoding: try PostgresJobRow.encode(entry.detail), as: UTF8.self))
    }

    private static func learn(_ estimates: [Stage: Double], kind: String, on connection: Connection) throws {
        for (stage, seconds) in estimates.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try connection.query(Statements.learnCost, kind, stage.rawValue, seconds, Date().timeIntervalSince1970)
        }
    }

    private static func nextQueueSequence(_ connection: Connection) throws -> Int64 {
        try connection.query(Statements.nextQueueSequence).first?["next"] ?? 1
    }
}
