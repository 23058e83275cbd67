import Dispatch
import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Synchronization
import TaskContract
import Testing

struct PostgresSchemaTests {
    @Test func aNewStoreHasEveryMigration() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            #expect(try store.appliedMigrations == PostgresSchema.migrations.map(\.name))
        }
    }

    @Test func aStoreMadeByAnOlderVersionMigratesWithItsJobIntact() throws {
        try PostgresTestSchema.with { schema in
            let original: JobRecord
            do {
                let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 1)
                original = try old.insert(try makeJob(), chunks: makeChunks(3))
                #expect(try old.appliedMigrations == ["1-jobs-chunks-journal"])
                #expect(throws: PostgresError.self) { try old.requestCancel(original.id) }
            }

            let store = try schema.openStore()
            #expect(try store.appliedMigrations == PostgresSchema.migrations.map(\.name))
            let job = try #require(try store.job(original.id))
            #expect(withDates(of: job, original) == job)
            #expect(try store.chunks(of: original.id).map(\.plan) == makeChunks(3))
            #expect(try store.journal(of: original.id).map(\.event) == [.submitted])
            #expect(try store.journal(of: original.id).map(\.storedAt) == [nil], "entries from before migration 10 have no stored time")
            try store.requestCancel(original.id)
            #expect(try store.isCancelRequested(original.id))

            // New entries get the database's time, whatever the writer's clock stamped as `at`.
            try store.append(JournalEntry(jobID: original.id, at: Date(timeIntervalSince1970: 0), event: .started))
            let stored = try #require(try store.journal(of: original.id).last?.storedAt)
            let databaseNow: Double = try #require(try schema.connect().query("SELECT extract(epoch FROM now())::float8 AS now")
                .first?["now"])
            #expect(stored.timeIntervalSince1970 <= databaseNow && stored.timeIntervalSince1970 > databaseNow - 600,
                    "stored at \(stored.timeIntervalSince1970), the database's now \(databaseNow)")
        }
    }

    @Test func chunksStoredBeforeRanksKeepIndexOrderOnceMigratedAndNewJobsAreClaimedLongestFirst() throws {
        try PostgresTestSchema.with { schema in
            try checkClaimRanksMigration(
                old: { try PostgresJobStore(schema.url, settings: ["search_path": schema.name],
                                            migrations: PostgresSchema.claimRanksMigration - 1) },
                migrated: { try schema.openStore() })
        }
    }

    @Test func aStoreMadeBeforeDoneChunksWereCountedCountsThemWhenItMigrates() throws {
        try PostgresTestSchema.with { schema in
            let job: JobRecord
            do {
                let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 5)
                job = try old.insert(try makeJob(state: .running), chunks: makeChunks(3))
                // Two chunks done, as a store of that version left them.
                try schema.connect().query("UPDATE chunks SET done = true WHERE job_id = $1 AND idx IN (0, 1)", job.id.rawValue)
            }

            let store = try schema.openStore()
            let last = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(last.chunkIndex == 2)
            let snapshot = progress(after: job.progress, total: 3, stage: last.plan.stage, cost: 1)
            #expect(try store.commit(last, checkpoint: Checkpoint(
                jobID: job.id, chunkIndex: 2, stage: last.plan.stage, kind: job.kind, costSeconds: 1, executor: "cpu",
                progress: snapshot)) == .committed)
            #expect(!(try store.journal(of: job.id).map(\.event).contains(.progressFirst)),
                    "the two chunks done before the migration are counted, so the third is not the first")
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.chunkIndex == PostgresJobStore.packageIndex)
        }
    }

    @Test func aStoreMadeBeforeOwedWorkWasCountedCountsItWhenItMigrates() throws {
        try PostgresTestSchema.with { schema in
            let job: JobRecord
            let plans = [PlannedChunk(key: "a", stage: .render, work: 2), PlannedChunk(key: "b", stage: .encode, work: 3),
                         PlannedChunk(key: "c", stage: .render, work: 0.5)]
            do {
                let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 13)
                job = try old.insert(try makeJob(state: .running), chunks: plans)
                try schema.connect().query("UPDATE chunks SET done = true WHERE job_id = $1 AND idx = 0", job.id.rawValue)
            }

            let store = try schema.openStore()
            #expect(try store.owedWork(of: job.id) == OwedWork([.render: .init(work: 0.5, chunks: 1),
                                                                .encode: .init(work: 3, chunks: 1)]))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: job.progress))
            #expect(try store.owedWork(of: job.id) == OwedWork([.render: .init(work: 0.5, chunks: 1)]))
        }
    }

    @Test func storesOpenedAtOnceApplyEachMigrationExactlyOnce() throws {
        try PostgresTestSchema.with { schema in
            let opened = Mutex(0)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try schema.openStore()
                    opened.withLock { $0 += 1 }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(opened.withLock { $0 } == 6)
            let names = try schema.connect().query("SELECT name FROM mediajob_schema_migrations")
                .map { try $0["name"] as String }
            #expect(names.sorted() == PostgresSchema.migrations.map(\.name).sorted(), "each migration applied once")
        }
    }

    @Test func aStoreMadeWhileCommitsUpdatedTheJobsRowKeepsItsProgressAndFirstProgressWhenItMigrates() throws {
        try PostgresTestSchema.with { schema in
            let started: JobRecord, fresh: JobRecord
            let snapshot: ProgressSnapshot
            do {
                let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 10)
                started = try old.insert(try makeJob(state: .running, unitsTotal: 3), chunks: makeChunks(3))
                fresh = try old.insert(try makeJob(workKey: "work-2", state: .running, unitsTotal: 1), chunks: makeChunks(1))
                // Chunk 0 of the first job committed as that version did: its count and progress on the job's row.
                snapshot = progress(after: started.progress, total: 3, stage: .render, cost: 1)
                let connection = try schema.connect()
                try connection.query("UPDATE chunks SET done = true WHERE job_id = $1 AND idx = 0", started.id.rawValue)
                try connection.query("UPDATE jobs SET chunks_done = 1, progress = $2 WHERE id = $1", started.id.rawValue,
                                     try PostgresJobRow.encode(snapshot))
            }

            let store = try schema.openStore()
            #expect(try store.job(started.id)?.progress == snapshot, "the progress the old commit stored on the job's row")
            for job in [started, fresh] {
                let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
                let next = progress(after: job.id == started.id ? snapshot : job.progress, total: job.progress.unitsTotal,
                                    stage: lease.plan.stage, cost: 1)
                #expect(try store.commit(lease, checkpoint: Checkpoint(
                    jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                    executor: "cpu", progress: next)) == .committed)
                #expect(try store.job(job.id)?.progress == next)
            }
            #expect(try store.journal(of: started.id).filter { $0.event == .progressFirst }.isEmpty,
                    "the chunk done before the migration was the first, so the next commit's is not")
            #expect(try store.journal(of: fresh.id).filter { $0.event == .progressFirst }.count == 1,
                    "a job with no chunk done before the migration gets its first progress from its first commit")
        }
    }

    @Test func aDatabaseMigratedByANewerVersionIsRefused() throws {
        try PostgresTestSchema.with { schema in
            _ = try schema.openStore()
            try schema.connect().query("INSERT INTO mediajob_schema_migrations (name) VALUES ($1)", "99-from-the-future")
            let error = try #require(throws: PostgresError.self) { try schema.openStore() }
            #expect(error.kind == .unknownMigrations)
            #expect(error.detail.contains("99-from-the-future"))
        }
    }
}
