import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Testing

/// A claim reads a bounded part of the index of unfinished chunks, whatever the planner's statistics
/// of `chunks` say: with none taken since a big job was stored (the planner guesses a few rows), a
/// claim once read every unfinished chunk of the job through a bitmap scan and sorted them.
struct ClaimPlanTests {
    /// Enough chunks that reading them all is far above a walk to the first free one.
    static let chunkCount = 2_000
    /// Index entries a walk to the first free chunk may read: the first free one and the package
    /// stage's check, with room for a few more; reading the job's unfinished chunks would be thousands.
    static let walkBound: Int64 = 20

    @Test func aClaimWalksTheIndexWhenNoStatisticsWereTakenSinceABigJobWasStored() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let connection = try schema.connect()
            try keepStatisticsAsTheyAre(connection)
            let job = try store.insert(try makeJob(state: .running), chunks: makeChunks(Self.chunkCount))
            let read = try indexEntriesReadByAClaim(on: connection)
            #expect(read <= Self.walkBound, "a claim in job \(job.id) read \(read) index entries")
        }
    }

    @Test func aStoreMadeBeforeClaimsWalkedTheIndexWalksItOnceMigrated() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let job: JobRecord
            do {
                let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name],
                                               migrations: PostgresSchema.claimsWalkTheIndexMigration - 1)
                try keepStatisticsAsTheyAre(connection)
                job = try old.insert(try makeJob(state: .running), chunks: makeChunks(Self.chunkCount))
            }
            let store = try schema.openStore()
            #expect(try store.appliedMigrations == PostgresSchema.migrations.map(\.name))
            let read = try indexEntriesReadByAClaim(on: connection)
            #expect(read <= Self.walkBound, "a claim in job \(job.id) read \(read) index entries")
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.chunkIndex == 0)
        }
    }

    /// No automatic ANALYZE of `chunks` during the test, so the planner keeps the statistics the test set up.
    private func keepStatisticsAsTheyAre(_ connection: Connection) throws {
        try connection.query("ALTER TABLE chunks SET (autovacuum_enabled = off)")
    }

    /// Runs the store's claim statement in a transaction rolled back, and counts the entries it read
    /// from the index of unfinished chunks in claim order (the transaction's own statistics).
    private func indexEntriesReadByAClaim(on connection: Connection) throws -> Int64 {
        try connection.query("BEGIN")
        defer { _ = try? connection.query("ROLLBACK") }
        let claimed = try connection.query(PostgresJobStore.Statements.claimChunk, String?.none, "w", 60.0, false,
                                           Date().timeIntervalSince1970, "token")
        #expect(claimed.count == 1, "the claim took a chunk")
        let read: Int64 = try #require(try connection.query("""
            SELECT pg_stat_get_xact_tuples_returned('chunks_unfinished_by_claim_rank'::regclass) AS read
            """).first?["read"])
        return read
    }
}
