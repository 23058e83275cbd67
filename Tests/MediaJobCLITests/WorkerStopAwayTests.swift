import Foundation
import Glibc
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// Workers stopped while their PostgreSQL server is away (issue 11): a stop must not wait for the
/// store's reconnection (about 25 s) when the store cannot take what it would tell it. One idle
/// worker stops on one SIGTERM; one holding a chunk (``HeldStep``) stops at once on the second,
/// saying which chunk it could not give back. The lease protocol makes that chunk safe: once the
/// server is back, another worker rescues it when its lease has run out and completes the job.
///
/// Each stop is given ``stopLimit``, well below the reconnection's budget: a worker that waits
/// on the store fails the test. The server is a throwaway cluster of this test's own.
@Suite struct WorkerStopAwayTests {
    /// How long a stopped worker may take to end while the server is away.
    static let stopLimit: TimeInterval = 10

    @Test func workersStopPromptlyWhileTheServerIsAwayAndTheChunkHeldIsRescuedLater() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            let fixture = CLIFixture()
            let store = cluster.url
            let id = try submitDetached(units: 1, unitMilliseconds: 30, in: fixture, store: store)
            let reader = try PostgresJobStore(store)
            let hold = try HeldStep(in: fixture.folder, name: "holding.fifo")
            let holding = try fixture.startWorker("holding", store: store, lease: "2",
                                                  environment: hold.environment(point: "chunk"))
            try #require(hold.waitUntil(holding, isHeldAt: "the job's one chunk"))
            // The job's one chunk is held: the package stage waits for it, so this worker has nothing to claim.
            let idle = try fixture.startWorker("idle", store: store, lease: "2")
            #expect(idle.waitForStderr(containing: "is taking chunks"))
            #expect(holding.waitForStderr(containing: "is taking chunks"))

            try cluster.stop()
            idle.send(SIGTERM)
            let idleEnd = idle.finish("stop on one SIGTERM while the server is away", within: Self.stopLimit)
            #expect(idleEnd.status == 0, "\(idleEnd.stderr)")
            #expect(idleEnd.stderr.contains("without reaching the store"), "\(idleEnd.stderr)")

            holding.send(SIGTERM)
            #expect(holding.waitForStderr(containing: "finishing 1 chunk in flight"))
            holding.send(SIGTERM)
            let holdingEnd = holding.finish("stop at once on a second SIGTERM while the server is away", within: Self.stopLimit)
            #expect(holdingEnd.status == 0, "\(holdingEnd.stderr)")
            #expect(holdingEnd.stderr.contains("could not give back chunk 0 of job \(id.short)"), "\(holdingEnd.stderr)")
            #expect(holdingEnd.stderr.contains("lease will run out"), "\(holdingEnd.stderr)")

            try cluster.start()
            let rescuer = try fixture.startWorker("rescuer", store: store, lease: "2")
            try await waitForCompletion(of: id, by: rescuer, reader: reader)
            let result = try fixture.result()
            #expect(result.committed == [0])
            #expect(result.executions == ["0": 1], "the held chunk ran once, in the worker that rescued it")
            try expectOneRescue(of: 0, from: holding.pid, job: id, in: reader)
        }
    }
}
