import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import Testing

/// What the lease protocol needs of PostgreSQL itself (the protocol's clauses, `LeaseContract`,
/// run in PostgresJobStoreTests): claims skip locked rows, and leases follow the database's clock.
struct ChunkLeaseTests {
    @Test func aClaimSkipsAChunkAnotherSessionHasLockedInsteadOfWaiting() async throws {
        try await PostgresTestSchema.with { schema in
            let job = try schema.openStore().insert(try makeJob(), chunks: makeChunks(2))
            let holder = try await schema.connectQueued()
            try await holder.run { connection in
                try connection.query("BEGIN")
                try connection.query("SELECT idx FROM chunks WHERE job_id = $1 AND idx = 0 FOR UPDATE", job.id.rawValue)
            }
            // Waiting on the lock would end the statement after 5 s with an error, failing the test.
            let store = try schema.openStore(settings: ["lock_timeout": "5s"])
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(lease.chunkIndex == 1)
            try await holder.run { try $0.query("ROLLBACK") }
            #expect(try store.claimChunk(worker: "w", lease: .seconds(60))?.chunkIndex == 0)
        }
    }

    @Test func theLeaseRunsByTheDatabasesClockAndOutputsAreNamedByEpochAndToken() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let lease = try #require(try store.claimChunk(worker: "w", lease: .seconds(90)))
            let token = try #require(lease.token, "a claim that does not wait for the WAL flush has a token")
            #expect(token.count == 16 && token.allSatisfy(\.isHexDigit))
            #expect(lease.outputName == "c0.1-\(token)")
            #expect(try schema.connect().query("SELECT lease_token FROM chunks WHERE job_id = $1 AND idx = 0", job.id.rawValue)
                .first?["lease_token"] as String? == token)
            let remaining: Double = try #require(try schema.connect().query(
                "SELECT extract(epoch FROM lease_expires_at - now())::float8 AS left FROM chunks WHERE job_id = $1 AND idx = 0",
                job.id.rawValue).first?["left"])
            #expect(remaining > 0 && remaining <= 90, "the lease ends 90 s after the database's now: \(remaining) s left")
        }
    }
}
