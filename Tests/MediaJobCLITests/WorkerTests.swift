import Foundation
import JobEngine
import JobStoreConformance
import PostgresJobStore
import PostgresTestKit
import Testing

/// `mediajob worker` processes sharing a PostgreSQL store run a job submitted with `--detach`.
@Suite struct WorkerTests {
    @Test func threeWorkersRunADetachedSelfTestEveryUnitCommittedOnceAndStopOnSIGTERM() async throws {
        let units = 12
        try await withDetachedSelfTest(units: units, unitMilliseconds: 40) { schema, fixture, id in
            let store = schema.storeURL

            // Three machines: each worker has a state folder of its own; only the store is shared.
            let workers = try (0..<3).map { n in
                try CLIProcess(["worker", "--store", store, "--slots", "2", "--lease", "2", "--state-dir", fixture.folder.path("worker\(n)")])
            }
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) is completed by the workers", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            try expectWorkersRanEveryUnitOnce(workers, units: units, job: id, in: reader, fixture: fixture)
        }
    }

    /// A worker is held at a step (the hit-th chunk, or publishing the result) and killed there with
    /// SIGKILL: it dies holding that chunk's lease (asserted in the database, so every trial really
    /// hits a chunk in flight); a second worker takes the chunk over once the lease has run out, and
    /// the job completes with every unit committed once and run once.
    @Test(arguments: zip(["chunk", "chunk", "chunk", "publish"], [1, 3, 6, 1]))
    func aWorkerKilledMidChunkHasItsChunkRescuedAfterTheLease(point: String, hit: Int) async throws {
        let units = 6
        try await withDetachedSelfTest(units: units, unitMilliseconds: 10) { schema, fixture, id in
            let store = schema.storeURL

            let (hold, doomed) = try heldWorker("doomed", at: point, hit: hit, lease: "1", in: fixture, store: store)
            if point == "chunk" { try await waitUntilDone(hit - 1, chunksOf: id, in: try PostgresJobStore(store)) }
            doomed.send(SIGKILL)
            #expect(doomed.finish("die of SIGKILL").status != 0)
            hold.release()
            let held = try schema.connect().query("SELECT idx FROM chunks WHERE job_id = $1 AND NOT done AND lease_owner LIKE $2",
                                                  id.rawValue, "%:\(doomed.pid)").map { try $0["idx"] as Int }
            #expect(held.count == 1, "the killed worker held exactly one chunk's lease: \(held)")
            let heldChunk = try #require(held.first)
            #expect(heldChunk == (point == "publish" ? PostgresJobStore.packageIndex : selfTestClaimOrder(units: units)[hit - 1]))

            let rescuer = try CLIProcess(["worker", "--store", store, "--slots", "2", "--lease", "1", "--state-dir", fixture.folder.path("rescuer")])
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) is completed by the second worker", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            rescuer.send(SIGTERM)
            let ended = rescuer.finish("stop after SIGTERM")
            #expect(ended.status == 0, "\(ended.stderr)")

            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }))
            try expectOneRescue(of: heldChunk, from: doomed.pid, job: id, in: reader)
        }
    }

    /// SIGTERM while a chunk is held: the worker claims nothing more, the chunk finishes once let go
    /// and is committed, and the worker exits 0. A second SIGTERM while a chunk is held gives its
    /// lease back at once (journalled `released`), so that the next claim takes it without waiting.
    @Test func aStoppedWorkerFinishesItsChunkInFlightAndASecondStopGivesItBack() async throws {
        try await withDetachedSelfTest(units: 4, unitMilliseconds: 10) { schema, fixture, id in
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)

            let (graceful, first) = try heldWorker("first", at: "chunk", hit: 2, lease: "2", in: fixture, store: store)
            first.send(SIGTERM)
            #expect(first.waitForStderr(containing: "Stopping: no more claims; finishing 1 chunk in flight"))
            graceful.release()
            let stopped = first.finish("stop after its chunk in flight")
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(try reader.chunks(of: id).map(\.isDone) == [false, true, false, true], "units 1 and 3, claimed first")
            #expect(try reader.journal(of: id).filter { $0.event == .claimed }.count == 2, "no claim after the stop")

            let (abrupt, second) = try heldWorker("second", at: "chunk", hit: 1, lease: "60", in: fixture, store: store)
            try expectSecondStopGivesBackOneChunk(second, held: abrupt, at: "its chunk")
            let released = try reader.journal(of: id).filter { $0.event == .released }
            #expect(released.map { $0.detail["chunk"] } == ["0"], "the third claimed")
            #expect(try leasesHeld(in: schema) == 0, "no lease is left held, although the second worker's lease was a minute long")
            #expect(try reader.job(id)?.state == .running, "running since its first claim")
        }
    }

    /// A second SIGTERM while the worker's claim was answered and its chunk is not in flight yet
    /// (held at `lease.claimed`, before the chunk's job is read) gives that chunk back too: it is
    /// journalled `released`, and no lease is left held although the worker's lease was a minute long.
    @Test func aSecondStopGivesBackAChunkClaimedButNotYetInFlight() async throws {
        try await withDetachedSelfTest(units: 2, unitMilliseconds: 10) { schema, fixture, id in
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)
            let (hold, worker) = try heldWorker("claiming", at: "lease.claimed", hit: 1, lease: "60", in: fixture, store: store)
            try expectSecondStopGivesBackOneChunk(worker, held: hold, at: "its claimed chunk")
            let journal = try reader.journal(of: id)
            let claimed = journal.filter { $0.event == .claimed }.compactMap { $0.detail["chunk"] }
            let released = journal.filter { $0.event == .released }.compactMap { $0.detail["chunk"] }
            #expect(claimed.count == 1 && released == claimed, "the chunk claimed was given back: \(claimed), \(released)")
            #expect(try leasesHeld(in: schema) == 0, "no lease is left held")
        }
    }

    /// A cancel from another process reaches a worker in the middle of a long chunk through the
    /// announcement it listens for (`LISTEN`): the chunk is given back and the job paused long before
    /// the worker's first renewal, which its 10-minute lease puts 200 s after its claim, could have
    /// reported the cancel.
    @Test func aCancelReachesAWorkerMidChunkThroughItsAnnouncementNotItsRenewal() async throws {
        try await withDetachedSelfTest(units: 2, unitMilliseconds: 600_000) { schema, fixture, id in
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)
            let worker = try CLIProcess(["worker", "--store", store, "--slots", "1", "--lease", "600", "--state-dir",
                                         fixture.folder.path("worker")])
            try await waitUntil("the worker claims chunk 1 of job \(id.short)", limit: .seconds(120)) {
                try reader.journal(of: id).contains { $0.event == .claimed }
            }
            let cancelled = try fixture.run("cancel", [id.rawValue, "--no-wait", "--store", store])
            #expect(cancelled.status == 0, "\(cancelled.stderr)")
            try await waitUntil("job \(id.short) is paused, with no renewal of the chunk's lease yet", limit: .seconds(120)) {
                try reader.job(id)?.state == .paused
            }
            #expect(try reader.journal(of: id).filter { $0.event == .released }.map { $0.detail["chunk"] } == ["1"],
                    "unit 1, the longer, claimed first")
            #expect(try reader.chunks(of: id).allSatisfy { !$0.isDone })
            stopWorkers([worker])
        }
    }

    /// A worker held at its first chunk and then stopped with SIGSTOP past its 1 s lease while a
    /// second worker takes the chunk over and completes the job; after SIGCONT the stale worker's
    /// work never counts: the job stays completed, every chunk committed once, from the epoch that
    /// held the lease (its commit, if it got that far, is refused).
    @Test func aWorkerStoppedPastItsLeaseNeverCommitsAfterSIGCONT() async throws {
        let units = 3
        try await withDetachedSelfTest(units: units, unitMilliseconds: 10) { schema, fixture, id in
            let store = schema.storeURL
            let (hold, stale) = try heldWorker("stale", at: "chunk", hit: 1, lease: "1", in: fixture, store: store)
            stale.send(SIGSTOP)
            let rescuer = try CLIProcess(["worker", "--store", store, "--slots", "1", "--lease", "1", "--state-dir", fixture.folder.path("rescuer")])
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) is completed by the second worker", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            stale.send(SIGCONT)
            hold.release()
            #expect(stale.waitForStderr(containing: "lost the lease on chunk 1"), "unit 1, the longer, claimed first")
            for worker in [stale, rescuer] {
                worker.send(SIGTERM)
                #expect(worker.finish("stop after SIGTERM").status == 0)
            }
            #expect(try reader.job(id)?.state == .completed)
            #expect(try fixture.result().committed == Array(0..<units))
            let check = try leaseCheck(try reader.journal(of: id), of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.rescues == 1)
            // Stopped, it could not fence itself: it may have run past its lease, and only it.
            #expect(check.overruns.allSatisfy { $0.worker?.hasSuffix(":\(stale.pid)") == true }, "\(check.overruns)")
        }
    }

    /// A stale writer: a worker that ran chunk 1 and wrote its output, then was stopped (SIGSTOP)
    /// right before its commit, past its 1 s lease. A second worker takes the chunk over under
    /// epoch 2: its output lies beside the stale one (`<key>.2-<token>` against `<key>.1-<token>`),
    /// never on it, and the package stage reads only the recorded one, so the stale bytes (spoilt
    /// here, so that using them would fail the self-test's check of every unit) never reach the result. After
    /// SIGCONT the stale commit is refused and journalled, and its output is removed.
    @Test func aStaleWritersOutputIsNeverOverwrittenByOrUsedForTheResultAndItsCommitIsRefused() async throws {
        let units = 3
        try await withDetachedSelfTest(units: units, unitMilliseconds: 10) { schema, fixture, id in
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)
            let workspace = URL(fileURLWithPath: try #require(try reader.job(id)).workspace)
            /// Chunk 1's output under `epoch`: `leases/unit-0000001.txt.<epoch>-<the claim's token>/unit-0000001.txt`.
            func output(_ epoch: Int) throws -> URL {
                let leases = workspace.appendingPathComponent("leases")
                let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: leases.path)
                    .first { $0.hasPrefix("unit-0000001.txt.\(epoch)-") }, "an output of chunk 1 under epoch \(epoch)")
                return leases.appendingPathComponent(folder).appendingPathComponent("unit-0000001.txt")
            }

            let (hold, stale) = try heldWorker("stale", at: "lease.commit", hit: 1, lease: "1", in: fixture, store: store)
            stale.send(SIGSTOP)
            let staleBytes = Data("stale bytes\n".utf8)
            #expect(FileManager.default.fileExists(atPath: try output(1).path), "the stale worker wrote chunk 1 under epoch 1")
            try staleBytes.write(to: try output(1))

            let (publishing, rescuer) = try heldWorker("rescuer", at: "publish", hit: 1, lease: "1", in: fixture, store: store)
            let recorded = try schema.connect().query("SELECT output FROM chunks WHERE job_id = $1 AND idx = 1 AND done",
                                                      id.rawValue).map { try $0["output"] as String }
            #expect(recorded == [try output(2).deletingLastPathComponent().lastPathComponent],
                    "chunk 1 is recorded with the rescuer's output")
            #expect(try Data(contentsOf: try output(1)) == staleBytes, "the rescuer wrote beside the stale output, not on it")
            #expect(try Data(contentsOf: try output(2)) != staleBytes)
            publishing.release()
            try await waitUntil("job \(id.short) is completed by the second worker", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units), "the result was made from the recorded outputs only")
            #expect(result.executions == ["0": 1, "1": 2, "2": 1], "chunk 1 really ran twice: once stale, once rescued")

            // So that its refused commit shows it running past the rescue interval (an overrun, below)
            // however fast the rescuer finished: the rescue is that old by the database's clock first.
            let rescued = try #require(try reader.journal(of: id).first { $0.event == .claimed && $0.detail["rescued_from"] != nil }?.storedAt)
            let allowance = LeaseJournalCheck.defaultRescueInterval / .seconds(1)
            let database = try schema.connect()
            try await waitUntil("the rescue of chunk 1 is \(allowance) s old by the database's clock", limit: .seconds(60)) {
                let now: Double? = try database.query("SELECT extract(epoch FROM now())::float8 AS now").first?["now"]
                return (now ?? 0) > rescued.timeIntervalSince1970 + allowance
            }
            stale.send(SIGCONT)
            hold.release()
            #expect(stale.waitForStderr(containing: "the commit of chunk 1 of job \(id.short) was refused"))
            for worker in [stale, rescuer] {
                worker.send(SIGTERM)
                #expect(worker.finish("stop after SIGTERM").status == 0)
            }
            let refused = try reader.journal(of: id).filter { $0.event == .commitRefused }
            #expect(refused.count == 1 && refused[0].detail["output"]?.hasPrefix("unit-0000001.txt.1-") == true)
            #expect(!FileManager.default.fileExists(atPath: workspace.path), "nothing of the stale writer is left")
            #expect(try reader.job(id)?.state == .completed)
            let check = try leaseCheck(try reader.journal(of: id), of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.rescues == 1)
            #expect(check.refusedCommits == 1)
            #expect(check.overruns.map(\.worker) == ["\(ProcessInfo.processInfo.hostName):\(stale.pid)"],
                    "its commit, refused, came long after the rescue: it ran past its lease, stopped")
        }
    }

    /// A job submitted with `--gpu auto` renders on a worker's GPU (lavapipe here) unless the worker
    /// was started with `--gpu off`: then every chunk records the CPU. The same project through a
    /// worker with `--gpu auto` records the GPU for its photos and segments (so the first half
    /// could fail).
    @Test func aWorkerStartedWithGPUOffRendersAutoJobsOnTheCPU() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let project = try GPUPathTests.project(in: fixture)
            // The worker with --gpu auto finds the GPU faster for both operations (AutoPathTests).
            _ = try AutoPathTests.record(fixture, folder: fixture.folder.path("worker-auto"),
                                         device: AutoPathTests.selectedDevice(fixture),
                                         photos: (cpu: 1, gpu: 100), video: (cpu: 1, gpu: 100))
            let reader = try PostgresJobStore(store)
            var executors: [String: [String]] = [:]
            for gpu in ["off", "auto"] {
                let submitted = try fixture.run("export", [project, "--output", fixture.folder.path("\(gpu).zip"), "--store", store,
                                                           "--detach", "--json"], environment: GPUPathTests.software)
                #expect(submitted.status == 0, "\(submitted.stderr)")
                let id = JobID(rawValue: try #require(submitted.events.first?[string: "job_id"]))
                let worker = try CLIProcess(["worker", "--store", store, "--gpu", gpu, "--slots", "1",
                                             "--state-dir", fixture.folder.path("worker-\(gpu)")], environment: GPUPathTests.software)
                try await waitUntil("job \(id.short) is completed by the worker with --gpu \(gpu)", limit: .seconds(300)) {
                    try reader.job(id)?.state == .completed
                }
                stopWorkers([worker])
                executors[gpu] = try reader.chunks(of: id).compactMap(\.executor)
            }
            #expect(executors["off"].map(Set.init) == ["cpu"], "\(executors)")
            #expect(executors["auto"]?.contains("gpu") == true, "\(executors)")
        }
    }

    /// Starts a one-slot worker named `name` (its own state folder) whose `hit`-th pass of fault
    /// point `point` is held, and waits until it is held there.
    /// Stops `worker`, held at `step`, twice: it must end at once, status 0, saying it gave back one chunk.
    private func expectSecondStopGivesBackOneChunk(_ worker: CLIProcess, held: HeldStep, at step: String) throws {
        worker.send(SIGTERM)
        #expect(worker.waitForStderr(containing: "Stopping"))
        worker.send(SIGTERM)
        let ended = worker.finish("stop at once on a second SIGTERM while \(step) is held")
        held.release()
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stderr.contains("gave back 1 chunk"), "\(ended.stderr)")
    }

    /// How many chunks of the schema's jobs have a lease owner.
    private func leasesHeld(in schema: PostgresTestSchema) throws -> Int {
        try #require(try schema.connect().query("SELECT count(*)::int AS n FROM chunks WHERE lease_owner IS NOT NULL")
            .map { try $0["n"] as Int }.first)
    }

    private func heldWorker(_ name: String, at point: String, hit: Int, lease: String, in fixture: CLIFixture,
                            store: String) throws -> (HeldStep, CLIProcess) {
        let hold = try HeldStep(in: fixture.folder, name: "\(name).fifo")
        let worker = try CLIProcess(["worker", "--store", store, "--slots", "1", "--lease", lease, "--state-dir", fixture.folder.path(name)],
                                    environment: hold.environment(point: point, hit: hit))
        try #require(hold.waitUntil(worker, isHeldAt: "\(point) pass \(hit) of worker \(name)"))
        return (hold, worker)
    }

    /// Runs `body` with a fresh schema and state folder in which a self-test of `units` units was
    /// submitted with `--detach`, and the job's id.
    private func withDetachedSelfTest(units: Int, unitMilliseconds: Int,
                                      _ body: (PostgresTestSchema, CLIFixture, JobID) async throws -> Void) async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            try await body(schema, fixture, try submitDetached(units: units, unitMilliseconds: unitMilliseconds, in: fixture,
                                                               store: schema.storeURL))
        }
    }
}
