import Foundation
import JobEngine
import JobStoreConformance
import Postgres
@testable import PostgresJobStore
import PostgresTestKit
import Testing

/// The package stage is one more leased chunk (its clauses are in `LeaseContract`): a store made
/// before package chunks gets them when it migrates.
struct PackageLeaseTests {
    @Test func aJobStoredBeforePackageChunksGetsOneWhenTheStoreMigrates() throws {
        try PostgresTestSchema.with { schema in
            let old = try PostgresJobStore(schema.url, settings: ["search_path": schema.name], migrations: 3)
            let job = try old.insert(try makeJob(state: .running), chunks: [])
            let rows = try schema.connect().query("SELECT count(*) AS n FROM chunks WHERE job_id = $1", job.id.rawValue)
            #expect(try rows.first?["n"] == Int64(1), "this program adds the package row at insert, whatever the schema")
            try schema.connect().query("DELETE FROM chunks WHERE job_id = $1", job.id.rawValue)

            let store = try schema.openStore()
            let package = try #require(try store.claimChunk(worker: "w", lease: .seconds(60)))
            #expect(package.jobID == job.id)
            #expect(package.plan == PostgresJobStore.packageChunk)
        }
    }
}
