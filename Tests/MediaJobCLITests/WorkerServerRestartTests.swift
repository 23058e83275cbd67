import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// The PostgreSQL server restarted (`pg_ctl restart -m fast`) and then crashed (`kill -9` of its
/// postmaster, then started again) while two workers run a detached job (issue 11): the workers
/// keep going through both, reconnecting as the server comes back, and the job completes with
/// every chunk committed once. The server is a throwaway cluster of this test's own, so that tests
/// using the shared one never see it go.
@Suite struct WorkerServerRestartTests {
    @Test func workersCarryOnThroughARestartAndACrashOfTheServer() async throws {
        // Enough units that the job outlasts both outages: with 40, two workers finished every
        // chunk while the server restarted (CI at 536f10a), leaving none for the crash.
        let units = 400
        try await ThrowawayPostgresCluster.with { cluster in
            let fixture = CLIFixture()
            let store = cluster.url
            let id = try submitDetached(units: units, unitMilliseconds: 30, in: fixture, store: store)
            let reader = try PostgresJobStore(store)
            let workers = try (0..<2).map { try fixture.startWorker("worker\($0)", store: store, lease: "2") }

            try await waitForDone(atLeast: 4, of: id, in: reader, before: "the restart")
            try cluster.restart()
            let doneAtRestart = try doneCount(of: id, in: reader)
            #expect(doneAtRestart < units, "chunks were left for the workers after the restart")
            let afterRestart = try await waitForDone(atLeast: min(doneAtRestart + 4, units), of: id, in: reader,
                                                     before: "the crash")
            try cluster.kill()
            try cluster.start()
            let journalBeforeRecovery = try reader.journal(of: id).count
            #expect(afterRestart < units, "chunks were left for the workers after the crash")

            try await waitUntil("job \(id.short) is completed after the server's crash", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            for worker in workers { worker.send(SIGTERM) }
            let ended = workers.map { $0.finish("stop after SIGTERM") }
            for run in ended { #expect(run.status == 0, "\(run.stderr)") }

            let journal = try reader.journal(of: id)
            let claimers = Set(journal.dropFirst(journalBeforeRecovery).filter { $0.event == .claimed }
                .compactMap { $0.detail["worker"]?.split(separator: ":").last.map(String.init) })
            #expect(claimers == Set(workers.map { String($0.pid) }),
                    "both workers claimed chunks once the server was back: \(claimers)")
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            let claims = journal.filter { $0.event == .claimed }.reduce(into: [String: Int]()) { $0[$1.detail["chunk"] ?? "?", default: 0] += 1 }
            for unit in 0..<units {
                // A unit runs again only under a new claim: once its lease was lost in an outage.
                let runs = result.executions[String(unit)] ?? 0
                #expect((1...(claims[String(unit)] ?? 0)).contains(runs), "unit \(unit) ran \(runs) times, claimed \(claims[String(unit)] ?? 0)")
            }
            let check = try leaseCheck(journal, of: id, in: reader)
            #expect(check.violations == [])
        }
    }

    /// Waits until at least `count` chunks of job `id` are done, and returns how many are.
    @discardableResult
    private func waitForDone(atLeast count: Int, of id: JobID, in reader: PostgresJobStore, before what: String) async throws -> Int {
        try await waitUntil("\(count) chunks of job \(id.short) are done before \(what)", limit: .seconds(120)) {
            try doneCount(of: id, in: reader) >= count
        }
        return try doneCount(of: id, in: reader)
    }

    private func doneCount(of id: JobID, in reader: PostgresJobStore) throws -> Int {
        try reader.chunks(of: id).filter(\.isDone).count
    }
}
