import Foundation
import Glibc
import JobEngine
import JobStoreConformance
import PostgresTestKit
import Testing

/// Submits a self-test with `--detach` (to `store`, else to the state folder's store) and returns
/// its id, read from the `submitted` event; checks that nothing ran in the submitter.
/// Waits (at most 120 s) until job `id` is completed, as `reader` reads it, then stops `worker`
/// with SIGTERM and expects it to exit 0. `what` names the wait in a failure (a trial, say).
func waitForCompletion(of id: JobID, by worker: CLIProcess, reader: any JobStore, _ what: String = "") async throws {
    try await waitUntil("job \(id.short)\(what) is completed", limit: .seconds(120)) { try reader.job(id)?.state == .completed }
    // A stop before the worker has set up its handling of signals would end it as SIGTERM ends any process.
    #expect(worker.waitForStderr(containing: "is taking chunks"))
    worker.send(SIGTERM)
    let ended = worker.finish("stop after SIGTERM")
    #expect(ended.status == 0, "\(ended.stderr)")
}

/// Waits (at most 60 s) until `count` chunks of job `id` are done: a worker held in a later chunk
/// has handed their commits to its committer (``LeaseCommitter``), which lands them while the slot
/// goes on, so a test that kills it there knows which leases it dies holding.
func waitUntilDone(_ count: Int, chunksOf id: JobID, in store: any JobStore) async throws {
    try await waitUntil("\(count) chunks of job \(id.short) are committed", limit: .seconds(60)) {
        try store.chunks(of: id).filter(\.isDone).count >= count
    }
}

/// The order in which workers claim a self-test's chunks of one unit each (``ClaimOrder``, longest
/// expected first): the odd units, which take twice as long, then the even ones, each in index order.
func selfTestClaimOrder(units: Int) -> [Int] {
    Array(stride(from: 1, to: units, by: 2)) + Array(stride(from: 0, to: units, by: 2))
}

func submitDetached(units: Int, unitMilliseconds: Int, in fixture: CLIFixture, store: String? = nil) throws -> JobID {
    let submitted = try fixture.run("selftest", fixture.selftest(units: units, unitMilliseconds: unitMilliseconds)
        + (store.map { ["--store", $0] } ?? []) + ["--detach"])
    #expect(submitted.status == 0, "\(submitted.stderr)")
    // Only the `submitted` event: a submitter that ran any of the job would have printed its
    // progress. (Its result file is no sign: a worker already running may publish it at once.)
    let events = submitted.stdout.split(separator: "\n")
    #expect(events.count == 1, "nothing ran in the submitter: \(submitted.stdout)")
    let event = try #require(events.first.flatMap(CLIProcess.object))
    #expect(event[string: "event"] == "submitted")
    return JobID(rawValue: try #require(event[string: "job_id"]))
}

/// Stops `workers` that completed a detached self-test of `units` units with SIGTERM, once each has
/// started taking chunks, and checks
/// what every such run must show: each worker exits 0 saying it stopped; every unit was committed
/// once and ran once; the job's journal keeps the lease protocol with no commit refused; and only
/// the workers claimed, each chunk and the package stage once.
func expectWorkersRanEveryUnitOnce(_ workers: [CLIProcess], units: Int, job id: JobID, in store: any JobStore,
                                   fixture: CLIFixture) throws {
    stopWorkers(workers)

    let result = try fixture.result()
    #expect(result.committed == Array(0..<units))
    #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }),
            "every unit ran exactly once")
    let journal = try store.journal(of: id)
    let check = try leaseCheck(journal, of: id, in: store)
    #expect(check.violations == [])
    #expect(check.overruns == [])
    #expect(check.refusedCommits == 0)
    let claims = journal.filter { $0.event == .claimed }
    #expect(claims.count == units + 1, "each chunk and the package stage claimed once")
    let pids = Set(workers.map { String($0.pid) })
    #expect(claims.allSatisfy { pids.contains(String($0.detail["worker"]?.split(separator: ":").last ?? "")) },
            "only the workers claimed: \(claims.map { $0.detail["worker"] ?? "?" })")
}

/// Stops `workers` with SIGTERM once each has started taking chunks, and checks that each exits 0
/// saying it stopped.
func stopWorkers(_ workers: [CLIProcess]) {
    // A stop before a worker has set up its handling of signals would end it as SIGTERM does any process.
    for worker in workers { #expect(worker.waitForStderr(containing: "is taking chunks")) }
    for worker in workers { worker.send(SIGTERM) }
    for worker in workers {
        let ended = worker.finish("stop after SIGTERM")
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stderr.contains("stopped."), "\(ended.stderr)")
    }
}

/// Checks the journal of a job completed after a worker (process `pid`) was killed holding
/// `heldChunk`: the lease protocol was kept, with no commit refused, and the chunk was rescued
/// from that worker, the one rescue.
func expectOneRescue(of heldChunk: Int, from pid: Int32, job id: JobID, in store: any JobStore) throws {
    let journal = try store.journal(of: id)
    let check = try leaseCheck(journal, of: id, in: store)
    #expect(check.violations == [])
    #expect(check.overruns == [], "the killed worker ran nothing past its lease")
    #expect(check.rescues == 1)
    #expect(check.refusedCommits == 0)
    #expect(journal.contains { entry in
        entry.event == .claimed && entry.detail["chunk"] == String(heldChunk)
            && entry.detail["rescued_from"]?.hasSuffix(":\(pid)") == true
    }, "the held chunk was rescued from the killed worker")
}

/// The lease journal check of the job's journal, its package stage included, with the default
/// rescue interval (``LeaseJournalCheck/defaultRescueInterval``).
func leaseCheck(_ journal: [JournalEntry], of id: JobID, in store: any JobStore) throws -> LeaseJournalCheck {
    var keys = Dictionary(uniqueKeysWithValues: try store.chunks(of: id).map { ($0.index, $0.plan.key) })
    keys[ChunkLease.packageIndex] = "package"
    return LeaseJournalCheck(journal, chunkKeys: keys)
}

/// The processes (their pids) that claimed chunks of a job, from its journal.
func claimingProcesses(_ journal: [JournalEntry]) -> Set<String> {
    Set(journal.filter { $0.event == .claimed }.compactMap { $0.detail["worker"]?.split(separator: ":").last.map(String.init) })
}
