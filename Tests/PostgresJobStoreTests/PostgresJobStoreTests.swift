import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import Testing

struct PostgresJobStoreTests {
    @Test(arguments: JobStoreContract.all)
    func keepsTheStoreContract(_ clause: JobStoreContract) throws {
        try PostgresTestSchema.with { schema in
            try clause.check { try schema.openStore() }
        }
    }

    @Test(arguments: LeaseContract.all)
    func keepsTheLeaseContract(_ clause: LeaseContract) throws {
        try PostgresTestSchema.with { schema in
            try clause.check { try schema.openStore() }
        }
    }

    @Test func theStoresSessionIsIdleOutsideATransactionBetweenCalls() throws {
        try PostgresTestSchema.with { schema in
            let name = "mediajob-test-\(UUID().uuidString)"
            let store = try schema.openStore(settings: ["application_name": name])
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 0, stage: .render, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: progress(after: job.progress, total: 2,
                                                                                stage: .render, cost: 1)))
            _ = try store.chunks(of: job.id)
            let states = try schema.connect().query("SELECT state FROM pg_stat_activity WHERE application_name = $1", name)
                .map { try $0["state"] as String? }
            #expect(states == ["idle"])
        }
    }

    @Test func aStoreOfAnotherDatabaseUserIsRefusedNamingTheServerButNotThePassword() throws {
        let url = try PostgresTestCluster.url()
        let components = try #require(URLComponents(string: url))
        let password = try #require(components.password)
        var wrong = components
        wrong.password = "not-\(password)"
        let error = try #require(throws: PostgresError.self) { try PostgresJobStore(try #require(wrong.string)) }
        let everything = "\(error) \(String(reflecting: error)) \(error.message)"
        #expect(everything.contains("127.0.0.1"))
        #expect(!everything.contains(password))
        #expect(!everything.contains("not-\(password)"))
    }

    @Test func noErrorOrJournalEntryOfAnOpenStoreNamesThePassword() throws {
        try PostgresTestSchema.with { schema in
            let password = try #require(URLComponents(string: schema.url)?.password)
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            var texts: [String] = []
            do {
                _ = try store.insert(job, chunks: [])
                Issue.record("inserting the same job twice was accepted")
            } catch {
                texts += ["\(error)", String(reflecting: error)]
            }
            do {
                try store.transition(JobID.make(), to: StateChange(state: .paused), journal: nil)
                Issue.record("changing the state of a job that is not there was accepted")
            } catch {
                texts += ["\(error)", String(reflecting: error)]
            }
            texts += try store.journal(of: job.id).map { "\($0)" }
            texts.append(String(reflecting: store))
            #expect(texts.count >= 6)
            #expect(texts.allSatisfy { !$0.contains(password) })
        }
    }
}

extension PostgresTestSchema {
    /// A store whose tables live in this schema.
    func openStore(settings: [String: String] = [:]) throws -> PostgresJobStore {
        try PostgresJobStore(url, settings: settings.merging(["search_path": name]) { $1 })
    }
}
