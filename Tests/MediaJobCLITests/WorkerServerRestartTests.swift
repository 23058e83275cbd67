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
///
/// Both workers are held in their first chunk (``HeldStep``) through both outages, so the job
/// cannot finish before them, however long the server takes to come back: every chunk but the
/// two in hand is left for after the crash.
@Suite struct WorkerServerRestartTests {
    @Test func workersCarryOnThroughARestartAndACrashOfTheServer() async throws {
        let units = 40
        try await ThrowawayPostgresCluster.with { cluster in
            let fixture = CLIFixture()
            let store = cluster.url
            let id = try submitDetached(units: units, unitMilliseconds: 30, in: fixture, store: store)
            let reader = try PostgresJobStore(store)
            let holds = try (0..<2).map { try HeldStep(in: fixture.folder, name: "worker\($0).fifo") }
            let workers = try (0..<2).map {
                try fixture.startWorker("worker\($0)", store: store, lease: "2",
                                        environment: holds[$0].environment(point: "chunk", hit: 1))
            }
            for (hold, worker) in zip(holds, workers) {
                try #require(hold.waitUntil(worker, isHeldAt: "its first chunk"))
            }

            try cluster.restart()
            try cluster.kill()
            try cluster.start()
            let journalBeforeRecovery = try reader.journal(of: id).count
            #expect(try reader.chunks(of: id).filter(\.isDone).isEmpty, "no chunk was done while both workers were held")
            for hold in holds { hold.release() }

            try await waitUntil("job \(id.short) is completed after the server's crash", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            for worker in workers { worker.send(SIGTERM) }
            let ended = workers.map { $0.finish("stop after SIGTERM") }
            for run in ended { #expect(run.status == 0, "\(run.stderr)") }

            let journal = try reader.journal(of: id)
            let claimsAfterRecovery = journal.dropFirst(journalBeforeRecovery).filter { $0.event == .claimed }
            #expect(claimsAfterRecovery.count >= units - 2, "the chunks left were claimed once the server was back")
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
            #expect(check.overruns == [], "a worker that could not renew through the outage stopped its chunk in time")
        }
    }
}
