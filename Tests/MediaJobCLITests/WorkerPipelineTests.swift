import EngineTestKit
import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// A worker's slot hands its finished chunk's commit to the worker's committer and claims its next
/// chunk at once (``LeaseCommitter``): the pipelining is real (a slot claims while its previous
/// commit has not landed) and safe (a worker killed with commits waiting loses only those, whose
/// chunks are rescued and redone, and nothing is committed twice).
@Suite struct WorkerPipelineTests {
    @Test func aSlotClaimsItsNextChunkWhileItsPreviousCommitHasNotLanded() async throws {
        let units = 4
        try await withDetachedSelfTest(units: units, unitMilliseconds: 10) { schema, fixture, id, reader in
            let store = schema.storeURL
            let (hold, worker) = try workerHoldingItsFirstCommit("pipelined", lease: "30", in: fixture, store: store)
            try await waitUntil("the slot claims a second chunk of job \(id.short) while the first one's commit is held",
                                limit: .seconds(120)) {
                try reader.journal(of: id).filter { $0.event == .claimed }.count >= 2
            }
            #expect(try !reader.journal(of: id).contains { $0.event == .checkpoint }, "no commit has landed")
            #expect(try reader.chunks(of: id).filter(\.isDone).isEmpty)
            hold.release()
            try await waitForCompletion(of: id, by: worker, reader: reader)
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }))
            let check = try leaseCheck(try reader.journal(of: id), of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.refusedCommits == 0)
            #expect(check.rescues == 0)
        }
    }

    /// A first SIGTERM waits for the commits not landed (here one held, its lease renewed meanwhile);
    /// a second gives their chunks back at once, as it does a running chunk's, and a second worker
    /// then completes the job.
    @Test func aFirstStopWaitsForCommitsNotLandedAndASecondGivesTheirChunksBack() async throws {
        let units = 4
        try await withDetachedSelfTest(units: units, unitMilliseconds: 10) { schema, fixture, id, reader in
            let store = schema.storeURL
            let (hold, worker) = try workerHoldingItsFirstCommit("stopping", lease: "2", in: fixture, store: store)
            #expect(worker.waitForStderr(containing: "is taking chunks"))
            worker.send(SIGTERM)
            #expect(worker.waitForStderr(containing: "Stopping: no more claims"))
            #expect(hold.isStillHeld, "the first stop waits for the held commit")
            worker.send(SIGTERM)
            let ended = worker.finish("stop at once after a second SIGTERM")
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(ended.stderr.contains("stopped at once: gave back"))
            let journal = try reader.journal(of: id)
            let released = journal.filter { $0.event == .released }.compactMap { $0.detail["chunk"] }
            let claimed = journal.filter { $0.event == .claimed }.compactMap { $0.detail["chunk"] }
            #expect(claimed.first.map(released.contains) == true, "the chunk whose commit was held was given back: \(released)")
            #expect(Set(released) == Set(claimed), "every chunk claimed, in flight or not yet, was given back: \(claimed), \(released)")
            #expect(!journal.contains { $0.event == .checkpoint }, "the held commit never landed")

            let rescuer = try fixture.startWorker("rescuer", store: store, lease: "30")
            try await waitForCompletion(of: id, by: rescuer, reader: reader)
            #expect(try fixture.result().committed == Array(0..<units))
            let check = try leaseCheck(try reader.journal(of: id), of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.refusedCommits == 0)
        }
    }

    /// The worker dies (SIGKILL, by the fault point's `kill`) as its committer is about to land its
    /// third commit: that commit, any beside it in its batch and those waiting behind it never land.
    /// Their chunks, and the one its slot was running, are rescued after their 1 s leases by a second
    /// worker; the result is the same and no chunk is committed twice.
    @Test func aWorkerKilledWithCommitsWaitingLosesOnlyThoseAndNothingIsCommittedTwice() async throws {
        let units = 8
        try await withDetachedSelfTest(units: units, unitMilliseconds: 20) { schema, fixture, id, reader in
            let store = schema.storeURL
            let doomed = try fixture.startWorker("doomed", store: store, lease: "1",
                                                 environment: ["MEDIAJOB_FAULT": "lease.commit-batch:3:kill"])
            #expect(doomed.finish("die of SIGKILL as its third commit lands").status != 0)

            let held = try schema.connect().query("SELECT idx FROM chunks WHERE job_id = $1 AND NOT done AND lease_owner LIKE $2",
                                                  id.rawValue, "%:\(doomed.pid)").map { try $0["idx"] as Int }
            let done = try reader.chunks(of: id).filter(\.isDone).count
            #expect(!held.isEmpty, "the third commit's chunk was still the dead worker's")
            #expect(held.count <= 1 + 2 * LeaseCommitter.bound(slots: 1),
                    "a one-slot worker held its running chunk and at most two bounds of commits: \(held)")
            #expect((1...2).contains(done), "the first commit, and the second unless it was in the third's batch, landed")

            let rescuer = try fixture.startWorker("rescuer", store: store, lease: "1")
            try await waitForCompletion(of: id, by: rescuer, reader: reader)

            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            for unit in 0..<units {
                let allowed = held.contains(unit) ? 1...2 : 1...1
                #expect(allowed.contains(result.executions[String(unit)] ?? 0),
                        "unit \(unit) ran \(result.executions[String(unit)] ?? 0) times")
            }
            let journal = try reader.journal(of: id)
            let check = try leaseCheck(journal, of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.refusedCommits == 0)
            #expect(check.rescues == held.count, "the chunks the dead worker held, and only they, were rescued")
            for chunk in held {
                #expect(journal.contains { $0.event == .claimed && $0.detail["chunk"] == String(chunk)
                            && $0.detail["rescued_from"]?.hasSuffix(":\(doomed.pid)") == true },
                        "chunk \(chunk) was rescued from the killed worker")
            }
        }
    }

    /// Runs `body` with a fresh schema and state folder in which a self-test of `units` units was
    /// submitted with `--detach`, the job's id, and a store reading the schema.
    private func withDetachedSelfTest(units: Int, unitMilliseconds: Int,
                                      _ body: (PostgresTestSchema, CLIFixture, JobID, PostgresJobStore) async throws -> Void)
        async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let id = try submitDetached(units: units, unitMilliseconds: unitMilliseconds, in: fixture, store: schema.storeURL)
            try await body(schema, fixture, id, try PostgresJobStore(schema.storeURL))
        }
    }

    /// Starts a one-slot worker whose committer holds its first commit, once it is held.
    private func workerHoldingItsFirstCommit(_ name: String, lease: String, in fixture: CLIFixture,
                                             store: String) throws -> (HeldStep, CLIProcess) {
        let hold = try HeldStep(in: fixture.folder, name: "\(name).fifo")
        let worker = try fixture.startWorker(name, store: store, lease: lease, environment: hold.environment(point: "lease.commit-batch"))
        try #require(hold.waitUntil(worker, isHeldAt: "the first commit of worker \(name)'s committer"))
        return (hold, worker)
    }
}
