import Foundation
import Glibc
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// Workers stopped while their PostgreSQL server is away (issue 11): a stop must not wait for the
/// store's reconnection (about 25 s) when the store cannot take what it would tell it. One idle
/// worker stops on one SIGTERM; one holding a chunk (``HeldStep``) stops at once on the second,
/// saying which chunk it could not give back; one whose commit is pending stops on one SIGTERM,
/// saying which chunk it could not commit. The lease protocol makes that chunk safe: once the
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
            let (id, hold, holding) = try heldWorker("holding", at: "chunk", lease: "2", step: "the job's one chunk",
                                                     in: fixture, store: store)
            let reader = try PostgresJobStore(store)
            // The job's one chunk is held: the package stage waits for it, so this worker has nothing to claim.
            let idle = try fixture.startWorker("idle", store: store, lease: "2")
            #expect(idle.waitForStderr(containing: "is taking chunks"))
            #expect(holding.waitForStderr(containing: "is taking chunks"))

            try cluster.stop()
            idle.send(SIGTERM)
            let idleEnd = idle.finish("stop on one SIGTERM while the server is away", within: Self.stopLimit)
            expect(idleEnd, saying: ["without reaching the store"])

            holding.send(SIGTERM)
            #expect(holding.waitForStderr(containing: "finishing 1 chunk in flight"))
            holding.send(SIGTERM)
            let holdingEnd = holding.finish("stop at once on a second SIGTERM while the server is away", within: Self.stopLimit)
            expect(holdingEnd, saying: ["could not give back chunk 0 of job \(id.short)", "lease will run out"])

            try await expectRescue(of: id, from: holding, once: cluster, in: fixture, reader: reader, executions: 1,
                                   "the held chunk ran once, in the worker that rescued it")
        }
    }

    /// A first SIGTERM while the worker's one commit is pending and the server is away: the
    /// commit's reconnection gives up soon after nothing is running, rather than after its 25 s,
    /// and the worker ends naming the chunk it could not commit. Once the server is back, another
    /// worker rescues that chunk when its lease has run out, and completes the job.
    @Test func aFirstStopWithACommitPendingWhileTheServerIsAwayEndsPromptlyAndTheChunkIsRescuedLater() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            let fixture = CLIFixture()
            let (id, hold, committing) = try heldWorker("committing", at: "lease.commit-batch", lease: "3",
                                                        step: "the commit of the job's one chunk", in: fixture, store: cluster.url)
            let reader = try PostgresJobStore(cluster.url)
            #expect(committing.waitForStderr(containing: "is taking chunks"))

            try cluster.stop()
            committing.send(SIGTERM)
            #expect(committing.waitForStderr(containing: "landing 1 commit"))
            hold.release()
            let ended = committing.finish("stop on one SIGTERM with a commit pending while the server is away",
                                          within: Self.stopLimit)
            expect(ended, saying: ["could not commit chunk 0 of job \(id.short)", "another worker will redo it"])

            try await expectRescue(of: id, from: committing, once: cluster, in: fixture, reader: reader, executions: 2,
                                   "the chunk ran in the stopped worker and again in the one that rescued it")
        }
    }

    /// Ctrl-C on the process that submitted a job and works on it, while the server is away: its
    /// chunk in hand stops, and the process does not wait out the reconnection to give it back or
    /// to pause the job; it ends promptly naming the chunk it could not give back and saying it
    /// could not pause the job, which the store still has running, and does not claim the job
    /// paused. Once the server is back, a worker rescues the chunk and completes the job.
    @Test func aSubmitterStoppedWhileTheServerIsAwayEndsPromptlySayingTheJobWasNotPaused() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            let fixture = CLIFixture()
            let hold = try HeldStep(in: fixture.folder, name: "submitter.fifo")
            let submitter = try fixture.start("selftest", fixture.selftest(units: 1, unitMilliseconds: 30)
                                              + ["--store", cluster.url, "--lease", "3"], environment: hold.environment(point: "chunk"))
            try #require(hold.waitUntil(submitter, isHeldAt: "the submitter's one chunk"))
            let submitted = try #require(submitter.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
            let id = JobID(rawValue: try #require(submitted[string: "job_id"]))
            let reader = try PostgresJobStore(cluster.url)

            try cluster.stop()
            submitter.send(SIGINT)
            #expect(submitter.waitForStderr(containing: "Stopping at the next chunk boundary"))
            hold.release()
            let ended = submitter.finish("stop on Ctrl-C while the server is away", within: Self.stopLimit)
            expect(ended, status: 75, saying: ["could not give back chunk 0 of job \(id.short)", "could not pause job \(id.short)",
                                               "Stopped at", "still running in the store"])
            #expect(!ended.stderr.contains("Paused"), "the job was not paused: \(ended.stderr)")

            try await expectRescue(of: id, from: submitter, once: cluster, in: fixture, reader: reader, executions: 2,
                                   "the unit ran in the stopped submitter, which dropped it, and again in the worker that rescued it")
        }
    }

    /// Submits a self-test of one unit with `--detach` and starts worker `name`, which claims its
    /// chunk, with the pass of fault point `point` held (`step`), once it is held.
    /// - Returns: the job's id, the held step and the worker.
    private func heldWorker(_ name: String, at point: String, lease: String, step: String, in fixture: CLIFixture,
                            store: String) throws -> (JobID, HeldStep, CLIProcess) {
        let id = try submitDetached(units: 1, unitMilliseconds: 30, in: fixture, store: store)
        let hold = try HeldStep(in: fixture.folder, name: "\(name).fifo")
        let worker = try fixture.startWorker(name, store: store, lease: lease, environment: hold.environment(point: point))
        try #require(hold.waitUntil(worker, isHeldAt: step))
        return (id, hold, worker)
    }

    /// The process ended with `status` (a worker's stop: 0), its standard error saying each of `words`
    /// and not passing on PostgreSQL's advice (to reconnect and retry, to check the URL): the process
    /// is stopping, and its messages say what happens next.
    private func expect(_ ended: CLIProcess.Result, status: Int32 = 0, saying words: [String]) {
        #expect(ended.status == status, "\(ended.stderr)")
        for word in words { #expect(ended.stderr.contains(word), "\(ended.stderr)") }
        for advice in ["reconnect and retry", "check the connection URL"] {
            #expect(!ended.stderr.contains(advice), "\(ended.stderr)")
        }
    }

    /// Starts `cluster` again and a worker that rescues the one chunk of job `id` from `stopped`
    /// once its lease has run out and completes the job: the chunk was committed once, and ran
    /// `executions` times in all (`why`).
    private func expectRescue(of id: JobID, from stopped: CLIProcess, once cluster: ThrowawayPostgresCluster,
                              in fixture: CLIFixture, reader: PostgresJobStore, executions: Int, _ why: Comment) async throws {
        try cluster.start()
        let rescuer = try fixture.startWorker("rescuer", store: cluster.url, lease: "2")
        try await waitForCompletion(of: id, by: rescuer, reader: reader)
        let result = try fixture.result()
        #expect(result.committed == [0])
        #expect(result.executions == ["0": executions], why)
        try expectOneRescue(of: 0, from: stopped.pid, job: id, in: reader)
    }
}
