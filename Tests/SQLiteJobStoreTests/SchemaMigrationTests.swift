import CSQLite
import Foundation
import Synchronization
import JobEngine
import JobStoreConformance
@testable import SQLiteJobStore
import Testing
import TaskContract

struct SchemaMigrationTests {
    @Test func newStoreIsAtTheLatestSchema() throws {
        try withStorePath { path in
            #expect(SQLiteSchema.latest == 12)
            for _ in 0..<3 {
                let store = try SQLiteJobStore(path: path)
                #expect(try store.schemaVersion == 12)
            }
        }
    }

    @Test func versionTenChunksKeepIndexOrderOnceMigratedAndNewJobsAreClaimedLongestFirst() throws {
        try withStorePath { path in
            try checkClaimRanksMigration(old: { try SQLiteJobStore(path: path, schemaVersion: SQLiteSchema.claimRanksVersion - 1) },
                                         migrated: { try SQLiteJobStore(path: path) })
        }
    }

    /// Journal entries get the store's time once the store is at version 9; older ones keep none.
    @Test func versionEightJournalEntriesGainTheStoresTimeOnlyOnceMigrated() throws {
        try withStorePath { path in
            let job: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 8)
                job = try old.insert(try makeJob(), chunks: makeChunks(1))
            }
            let store = try SQLiteJobStore(path: path)
            #expect(try store.journal(of: job.id).map(\.storedAt) == [nil], "entries from before the migration have no stored time")
            try store.append(JournalEntry(jobID: job.id, at: Date(timeIntervalSince1970: 0), event: .started))
            let stored = try #require(try store.journal(of: job.id).last?.storedAt, "a new entry has the store's time")
            // SQLite's clock is this machine's, whatever the writer stamped as `at`.
            #expect(abs(stored.timeIntervalSinceNow) < 600, "stored at \(stored)")
        }
    }

    /// The owed work of chunks stored before version 10 is counted by the migration, then kept.
    @Test func versionNineChunksAreCountedAsOwedWorkOnceMigrated() throws {
        try withStorePath { path in
            let job: JobRecord
            let plans = [PlannedChunk(key: "a", stage: .render, work: 2), PlannedChunk(key: "b", stage: .encode, work: 3),
                         PlannedChunk(key: "c", stage: .render, work: 0.5)]
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 9)
                job = try old.insert(try makeJob(), chunks: plans)
                try old.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 0, stage: .render, kind: job.kind, costSeconds: 1,
                                              executor: "cpu", progress: job.progress))
            }
            let store = try SQLiteJobStore(path: path)
            #expect(try store.owedWork(of: job.id) == OwedWork([.render: .init(work: 0.5, chunks: 1),
                                                                .encode: .init(work: 3, chunks: 1)]))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: job.progress))
            #expect(try store.owedWork(of: job.id) == OwedWork([.render: .init(work: 0.5, chunks: 1)]))
        }
    }

    /// From version 12 a job's settings live in `job_specs`, apart from the `jobs` row every
    /// checkpoint rewrites whole; a version-11 job's move there with the migration.
    @Test func versionElevenSettingsMoveOutOfTheRowCheckpointsRewrite() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 11)
                original = try old.insert(try makeJob(), chunks: makeChunks(2))
            }
            let store = try SQLiteJobStore(path: path)
            let added = try store.insert(try makeJob(), chunks: makeChunks(1))
            try store.checkpoint(Checkpoint(jobID: original.id, chunkIndex: 0, stage: .render, kind: original.kind,
                                            costSeconds: 1, executor: "cpu", progress: original.progress))
            #expect(try store.job(original.id)?.spec == original.spec)
            #expect(try store.job(added.id)?.spec == added.spec)
            let database = try SQLiteDatabase(path: path)
            let rowBytes = try database.prepare("SELECT SUM(length(spec)) AS bytes FROM jobs").rows { try $0.integer("bytes") }
            let apart = try database.prepare("SELECT SUM(length(spec)) AS bytes FROM job_specs").rows { try $0.integer("bytes") }
            #expect(rowBytes == [0])
            #expect(apart == [Int64(original.spec.count + added.spec.count)])
            try store.remove(added.id)
            #expect(try database.prepare("SELECT COUNT(*) AS n FROM job_specs").rows { try $0.integer("n") } == [1])
        }
    }

    @Test func versionOneStoreLacksCostHistoryAndCancelRequests() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path, schemaVersion: 1)
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            #expect(try store.schemaVersion == 1)
            #expect(throws: SQLiteError.self) { try store.costHistory(kind: "export") }
            #expect(throws: SQLiteError.self) { try store.requestCancel(job.id) }
        }
    }

    @Test func versionOneStoreMigratesWithItsJobIntact() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 1)
                original = try old.insert(try makeJob(), chunks: makeChunks(3))
            }

            let store = try SQLiteJobStore(path: path)
            #expect(try store.schemaVersion == SQLiteSchema.latest)
            let job = try #require(try store.job(original.id))
            #expect(withDates(of: job, original) == job)
            #expect(try store.chunks(of: original.id).map(\.plan) == makeChunks(3))
            #expect(try store.journal(of: original.id).map(\.event) == [.submitted])

            try store.requestCancel(original.id)
            #expect(try store.isCancelRequested(original.id))
            var final = job.progress
            final.costs.observe(7, for: .package)
            try store.transition(original.id, to: StateChange(state: .completed, progress: final, clearsCancel: true),
                                 journal: nil)
            #expect(try store.costHistory(kind: "export") == final.costs.estimates)
            #expect(try !store.isCancelRequested(original.id))
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func versionTwoCostsPerChunkAreDroppedAndCostsPerUnitOfWorkAreKept() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 2)
                original = try old.insert(try makeJob(), chunks: makeChunks(2))
                // What version 2 learned: 30 s per encode chunk.
                try SQLiteDatabase(path: path).execute(
                    "INSERT INTO cost_history (kind, stage, seconds, updated_at) VALUES ('export', 'encode', 30, 0)")
            }

            let store = try SQLiteJobStore(path: path)
            #expect(try store.schemaVersion == SQLiteSchema.latest)
            #expect(try store.costHistory(kind: "export").isEmpty, "seconds per chunk are not seconds per unit of work")
            var progress = try #require(try store.job(original.id)).progress
            progress.costs.observe(30, work: 60, for: .encode)
            try store.transition(original.id, to: StateChange(state: .completed, progress: progress), journal: nil)
            #expect(try store.costHistory(kind: "export")[.encode] == progress.costs.estimate(for: .encode))
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func versionFourJobsGetAPackageChunkAndTheirChunksAreLeasedAfterMigrating() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 4)
                original = try old.insert(try makeDetachedJob(state: .running), chunks: makeChunks(1))
                // What version 4 stored: no package row (this program adds one at insert, whatever the schema).
                try SQLiteDatabase(path: path).execute("DELETE FROM chunks WHERE idx < 0")
                #expect(throws: SQLiteError.self) { try old.claimChunk(worker: "w", lease: .seconds(60)) }
            }

            let store = try SQLiteJobStore(path: path)
            #expect(try store.schemaVersion == SQLiteSchema.latest)
            #expect(try store.chunks(of: original.id).map(\.plan) == makeChunks(1), "the package is not listed as a chunk")
            let chunk = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(chunk.chunkIndex == 0)
            #expect(chunk.epoch == 1)
            #expect(try store.commit(chunk, checkpoint: Checkpoint(
                jobID: original.id, chunkIndex: 0, stage: chunk.plan.stage, kind: original.kind, costSeconds: 1, executor: "cpu",
                progress: progress(after: original.progress, total: 1, stage: chunk.plan.stage, cost: 1))) == .committed)
            let package = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(package.plan == ChunkLease.packageChunk)
            #expect(try store.commit(package, checkpoint: Checkpoint(
                jobID: original.id, chunkIndex: package.chunkIndex, stage: .package, kind: original.kind, costSeconds: 1,
                executor: nil, progress: original.progress)) == .committed)
            #expect(try store.job(original.id)?.state == .completed)
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func versionFiveChunksCanFailOnceMigrated() throws {
        try withStorePath { path in
            let original: JobRecord
            do {
                let old = try SQLiteJobStore(path: path, schemaVersion: 5)
                original = try old.insert(try makeDetachedJob(state: .running), chunks: makeChunks(1))
                #expect(throws: SQLiteError.self) { try old.claimChunk(worker: "w", lease: .seconds(60)) }
            }

            let store = try SQLiteJobStore(path: path)
            #expect(try store.schemaVersion == SQLiteSchema.latest)
            let chunk = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(chunk.jobID == original.id)
            #expect(chunk.failures == 0)
            #expect(try store.fail(chunk, .elsewhere("on host h: a.jpg cannot be read here")))
            #expect(try store.claimChunk(worker: "other", lease: .seconds(60))?.failures == 1)
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func aLeaseRunsBySQLitesClock() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeDetachedJob(), chunks: makeChunks(1))
            _ = try #require(try store.claimChunk(worker: "w", lease: .seconds(90)))
            let database = try SQLiteDatabase(path: path)
            let left = try database.prepare(
                "SELECT lease_expires_at - \(SQLiteClock.now) AS left FROM chunks WHERE job_id = ?1 AND idx = 0")
                .rows([.text(job.id.rawValue)]) { try $0.real("left") }
            #expect(left.count == 1)
            #expect(left.allSatisfy { $0 > 0 && $0 <= 90 }, "the lease ends 90 s after SQLite's now: \(left) s left")
            // SQLite's clock is the machine's: Unix seconds, as Foundation reads them (a wrong unit would be hours or days off).
            let now = try database.prepare("SELECT \(SQLiteClock.now) AS now").rows { try $0.real("now") }
            #expect(now.allSatisfy { abs($0 - Date().timeIntervalSince1970) < 60 })
        }
    }

    @Test func openingAtAnOlderVersionNeverDowngrades() throws {
        try withStorePath { path in
            _ = try SQLiteJobStore(path: path)
            let reopened = try SQLiteJobStore(path: path, schemaVersion: 1)
            #expect(try reopened.schemaVersion == SQLiteSchema.latest)
        }
    }

    @Test func storeNewerThanThisProgramIsRefusedWithAnUpgradeHint() throws {
        try withStorePath { path in
            _ = try SQLiteJobStore(path: path)
            try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")

            let error = try #require(throws: SQLiteStoreError.self) { try SQLiteJobStore(path: path) }
            #expect(error == .schemaTooNew(path: path, found: 99, known: SQLiteSchema.latest))
            #expect(error.message.contains("upgrade the program"))
            #expect(error.message.contains("99"))
            #expect(error.category == .internal)
        }
    }

    @Test func fileThatIsNotADatabaseIsReportedAsDamaged() throws {
        try withStorePath { path in
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: SQLiteError.self) { try SQLiteJobStore(path: path) }
            #expect(error.code & 0xff == SQLITE_NOTADB)
            #expect(error.message.contains("damaged"))
        }
    }

    @Test func errorCategoriesFollowThePrimaryResultCode() {
        func category(_ code: Int32) -> FailureCategory {
            SQLiteError(extendedCode: code, sqliteMessage: "", statement: "").category
        }
        #expect(category(SQLITE_FULL) == .noSpace)
        #expect(category(SQLITE_IOERR) == .io)
        #expect(category(SQLITE_IOERR | (3 << 8)) == .io)
        #expect(category(SQLITE_CANTOPEN) == .io)
        #expect(category(SQLITE_READONLY) == .io)
        #expect(category(SQLITE_BUSY) == .resource)
        #expect(category(SQLITE_LOCKED) == .resource)
        #expect(category(SQLITE_NOMEM) == .resource)
        #expect(category(SQLITE_CONSTRAINT) == .internal)
        #expect(SQLiteError(extendedCode: SQLITE_FULL, sqliteMessage: "", statement: "checkpoint").message.contains("no space"))
    }
}

struct ConcurrentOpeningTests {
    @Test func processesOpeningANewStoreAtOnceAllSucceed() throws {
        for round in 0..<10 {
            try withStorePath { path in
                let failures = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 6) { _ in
                    do {
                        _ = try SQLiteJobStore(path: path)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                #expect(failures.withLock { $0 }.isEmpty, "round \(round)")
                let version = try SQLiteJobStore(path: path).schemaVersion
                #expect(version == SQLiteSchema.latest)
            }
        }
    }

    @Test func aCheckpointForAChunkThatDoesNotExistIsAnError() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            #expect(throws: JobStoreError.noSuchChunk(job.id, index: 7)) {
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 7, stage: .render, kind: "export",
                                                costSeconds: 1, executor: nil, progress: job.progress))
            }
            #expect(try store.journal(of: job.id).allSatisfy { $0.event != .checkpoint }, "nothing was journaled")
        }
    }
}
