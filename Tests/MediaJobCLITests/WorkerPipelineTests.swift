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
            try expectEachUnitCommittedOnce(units: units, of: id, in: fixture, reader: reader)
        }
    }

    /// Commits of short chunks wait beyond two a slot while a batch lands (``CommitAllowance``), so
    /// that many share a flush: with its first commit held, a one-slot worker goes on claiming past
    /// the held commit, two waiting and one running, never past the most its allowance lets wait, and
    /// the job completes once the commit is let go.
    @Test func shortChunksCommitsWaitBeyondTwoASlotWhileABatchLands() async throws {
        let allowance = CommitAllowance(slots: 1)
        let units = 2 + allowance.always + 6
        try await withDetachedSelfTest(units: units, unitMilliseconds: 1) { schema, fixture, id, reader in
            let (hold, worker) = try workerHoldingItsFirstCommit("short", lease: "30", in: fixture, store: schema.storeURL)
            // Beyond the held commit, two a slot waiting behind it and the chunk the slot runs meanwhile.
            let beyondTwoASlot = 1 + allowance.always + 1 + 1
            try await waitUntil("the slot claims \(beyondTwoASlot) chunks of job \(id.short) while its first commit is held",
                                limit: .seconds(120)) {
                try reader.journal(of: id).filter { $0.event == .claimed }.count >= beyondTwoASlot
            }
            let claimed = try reader.journal(of: id).filter { $0.event == .claimed }.count
            #expect(claimed <= 1 + allowance.most + 1, "no more commits wait than the allowance's most")
            #expect(try reader.chunks(of: id).filter(\.isDone).isEmpty, "no commit has landed")
            hold.release()
            try await waitForCompletion(of: id, by: worker, reader: reader)
            try expectEachUnitCommittedOnce(units: units, of: id, in: fixture, reader: reader)
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
    /// third commit: that commit, any beside it in its batch and those waiting behind it never land
    /// (at most two allowances of commits, ``CommitAllowance/most``).
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
            #expect(held.count <= 1 + 2 * CommitAllowance(slots: 1).most,
                    "a one-slot worker held its running chunk and at most two allowances of commits: \(held)")
            #expect(done <= 2, "only commits in batches before the third's landed (the first two at most)")

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

    /// Checks that the job's `units` were each run and committed once, with no commit refused and
    /// no chunk rescued.
    private func expectEachUnitCommittedOnce(units: Int, of id: JobID, in fixture: CLIFixture,
                                             reader: PostgresJobStore) throws {
        let result = try fixture.result()
        #expect(result.committed == Array(0..<units))
        #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }))
        let check = try leaseCheck(try reader.journal(of: id), of: id, in: reader)
        #expect(check.violations == [])
        #expect(check.refusedCommits == 0)
        #expect(check.rescues == 0)
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
