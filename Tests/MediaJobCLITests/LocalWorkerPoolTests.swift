import Foundation
import Glibc
import JobEngine
import JobStoreConformance
import PostgresTestKit
import SQLiteJobStore
import Testing

/// `mediajob worker` without `--store`: processes sharing one state folder run a job submitted
/// with `--detach` through the folder's SQLite store, under the same lease protocol as PostgreSQL.
@Suite struct LocalWorkerPoolTests {
    @Test func threeLocalWorkersRunADetachedSelfTestEveryUnitCommittedOnceAndStopOnSIGTERM() async throws {
        let units = 12
        let fixture = CLIFixture()
        let id = try submitDetached(units: units, unitMilliseconds: 40, in: fixture)
        #expect(try fixture.status(id.rawValue)[string: "state"] == "queued",
                "a job left to workers is not taken for interrupted once its submitter has ended")

        let workers = try (0..<3).map { _ in try fixture.start("worker", ["--slots", "2", "--lease", "2"]) }
        let reader = try fixture.store()
        try await waitUntil("job \(id.short) is completed by the local workers", limit: .seconds(120)) {
            try reader.job(id)?.state == .completed
        }
        // `status` says who ran what and who is taking chunks: the three workers, by host and pid.
        // Each lists itself before it says it is taking chunks; on a loaded machine one may start
        // only after the others finished the job.
        for worker in workers { #expect(worker.waitForStderr(containing: "is taking chunks")) }
        let names = Set(workers.map { "\(ProcessInfo.processInfo.hostName):\($0.pid)" })
        let status = try fixture.status(id.rawValue)
        let ranBy = try #require(status["ran_by"] as? [String: Int], "\(status)")
        #expect(Set(ranBy.keys).isSubset(of: names) && ranBy.values.reduce(0, +) == units, "\(ranBy) against \(names)")
        let live = try #require(status["live_workers"] as? [[String: Any]], "\(status)")
        #expect(Set(live.compactMap { $0["name"] as? String }) == names)
        try expectWorkersRanEveryUnitOnce(workers, units: units, job: id, in: reader, fixture: fixture)
    }

    /// A worker held at a step (the second chunk, or publishing) is killed there with SIGKILL while
    /// it holds that chunk's lease (asserted from the store, so the trial really hits a chunk in
    /// flight); another worker of the pool takes the chunk over once the lease has run out, and the
    /// result is byte for byte the one a single process makes.
    @Test(arguments: zip(["chunk", "publish"], [2, 1]))
    func aLocalWorkerKilledMidChunkHasItsChunkRescuedAfterTheLease(point: String, hit: Int) async throws {
        let units = 4
        let fixture = CLIFixture()
        let reference = try fixture.run("selftest", fixture.selftest(units: units, unitMilliseconds: 10, output: "reference.json"))
        #expect(reference.status == 0, "\(reference.stderr)")
        let id = try submitDetached(units: units, unitMilliseconds: 10, in: fixture)

        let hold = try HeldStep(in: fixture.folder, name: "doomed.fifo")
        let doomed = try fixture.start("worker", ["--slots", "1", "--lease", "1"], environment: hold.environment(point: point, hit: hit))
        try #require(hold.waitUntil(doomed, isHeldAt: "\(point) pass \(hit) of the doomed worker"))
        let reader = try fixture.store()
        if point == "chunk" { try await waitUntilDone(hit - 1, chunksOf: id, in: reader) }
        doomed.send(SIGKILL)
        #expect(doomed.finish("die of SIGKILL").status != 0)
        hold.release()
        let heldChunk = try #require(try chunksHeld(byProcess: doomed.pid, of: id, in: reader).first)
        #expect(try chunksHeld(byProcess: doomed.pid, of: id, in: reader) == [point == "publish" ? ChunkLease.packageIndex : selfTestClaimOrder(units: units)[hit - 1]],
                "the killed worker died holding exactly the lease of the chunk it was held in")

        let rescuer = try fixture.start("worker", ["--slots", "2", "--lease", "1"])
        try await waitUntil("job \(id.short) is completed by the second worker", limit: .seconds(120)) {
            try reader.job(id)?.state == .completed
        }
        rescuer.send(SIGTERM)
        let ended = rescuer.finish("stop after SIGTERM")
        #expect(ended.status == 0, "\(ended.stderr)")

        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("result.json")))
                    == Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("reference.json"))),
                "the pool's result is the one-process result")
        try expectOneRescue(of: heldChunk, from: doomed.pid, job: id, in: reader)
    }

    /// `mediajob cancel` of a job the pool runs, with chunks far shorter than a third of the
    /// lease (so no renewal comes while one runs): the worker gives back the next chunk it claims
    /// and pauses the job, which then waits to be resumed, its units not all done. The worker is
    /// held in its second chunk while the cancel is asked for, so the job cannot end first.
    @Test func aCancelPausesAJobThePoolRunsAtItsNextChunk() async throws {
        let units = 400
        let fixture = CLIFixture()
        let id = try submitDetached(units: units, unitMilliseconds: 20, in: fixture)
        let hold = try HeldStep(in: fixture.folder)
        let worker = try fixture.start("worker", ["--slots", "1", "--lease", "300"],
                                       environment: hold.environment(point: "chunk", hit: 2))
        try #require(hold.waitUntil(worker, isHeldAt: "the worker's second chunk"))
        let reader = try fixture.store()
        let cancelled = try fixture.run("cancel", [id.rawValue, "--no-wait"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        hold.release()
        try await waitUntil("job \(id.short) is paused by its worker", limit: .seconds(120)) {
            try reader.job(id)?.state == .paused
        }
        worker.send(SIGTERM)
        #expect(worker.finish("stop after SIGTERM").status == 0)
        #expect(try reader.chunks(of: id).contains { !$0.isDone }, "the job stopped before its end")
        #expect(try !reader.isCancelRequested(id), "the pause answered the cancel")
        #expect(try reader.journal(of: id).last { $0.event == .ended }?.detail["outcome"] == "paused")
        let check = LeaseJournalCheck(try reader.journal(of: id), chunkKeys: [:])
        #expect(check.violations == [])
        #expect(check.overruns == [])
    }

    /// The chunks (the package stage included) not done whose latest claim, in the journal, is by
    /// process `pid`: those whose leases it held when it died.
    private func chunksHeld(byProcess pid: Int32, of id: JobID, in store: SQLiteJobStore) throws -> [Int] {
        var latestClaimer: [Int: String] = [:]
        for entry in try store.journal(of: id) where entry.event == .claimed {
            if let chunk = entry.detail["chunk"].flatMap(Int.init) { latestClaimer[chunk] = entry.detail["worker"] }
        }
        let done = Set(try store.chunks(of: id).filter(\.isDone).map(\.index))
        let finished = try store.job(id)?.state == .completed
        return latestClaimer.filter { chunk, worker in
            worker.hasSuffix(":\(pid)") && !done.contains(chunk) && !(chunk == ChunkLease.packageIndex && finished)
        }.keys.sorted()
    }
}
