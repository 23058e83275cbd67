import EngineTestKit
import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// `kill -9` of a worker at random moments of a detached self-test (issue 11): whatever the
/// worker held is rescued by another once its lease has run out, the result is the same, and no
/// chunk is committed twice.
@Suite struct WorkerKillTrialTests {
    /// How many trials run, and how many of them must have killed the worker while it held a chunk.
    /// The kill lands in the first second after the test saw the worker's first claim, while the job
    /// still has 1.2 s of units to run, so a trial misses a chunk only where the kill falls between a
    /// commit and the next claim (a few milliseconds per chunk) or the test saw the claim late on a
    /// loaded machine; the floor leaves room for that without letting a run that hit almost nothing pass.
    static let trials = 10
    static let hitFloor = 6

    /// Each trial: an 8-unit self-test (100 ms even units, 200 ms odd ones) submitted with `--detach`;
    /// a one-slot worker with 1 s leases starts, and at a random moment after its first claim it is
    /// killed with SIGKILL. Whether it held a chunk then is read from the database (the chunk's lease
    /// owner), never guessed. A second worker then finishes the job. The seed is printed, and
    /// `MEDIAJOB_KILL_TRIAL_SEED` repeats a run's kill moments.
    @Test func workersKilledAtRandomMomentsLoseNothingAndCommitNothingTwice() async throws {
        let seed = ProcessInfo.processInfo.environment["MEDIAJOB_KILL_TRIAL_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0011
        print("WorkerKillTrialTests: seed \(seed) (MEDIAJOB_KILL_TRIAL_SEED=\(seed) repeats these kill moments)")
        var random = SplitMix64(seed: seed)
        let units = 8
        try await PostgresTestSchema.with { schema in
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)
            var hits = 0
            for trial in 0..<Self.trials {
                let delay = Int.random(in: 0..<1000, using: &random)
                let fixture = CLIFixture()
                let id = try submitDetached(units: units, unitMilliseconds: 100, in: fixture, store: store)

                let doomed = try fixture.startWorker("doomed-\(trial)", store: store, lease: "1")
                try await waitUntil("the worker of trial \(trial) claims its first chunk of job \(id.short)", limit: .seconds(120)) {
                    try reader.journal(of: id).contains { $0.event == .claimed }
                }
                try await Task.sleep(for: .milliseconds(delay))
                doomed.send(SIGKILL)
                #expect(doomed.finish("die of SIGKILL").status != 0)

                // What the killed worker held, by the database; its lease runs out within one lease
                // of now (its last renewal), by the database's clock.
                let held = try schema.connect().query("""
                    SELECT idx, lease_expires_at <= now() + interval '1 second' AS within_lease FROM chunks
                    WHERE job_id = $1 AND NOT done AND lease_owner LIKE $2
                    """, id.rawValue, "%:\(doomed.pid)").map { (try $0["idx"] as Int, try $0["within_lease"] as Bool) }
                // Its running chunk, and the chunks whose commits its committer had not landed yet.
                #expect(held.count <= 1 + 2 * CommitAllowance(slots: 1).most,
                        "trial \(trial): a one-slot worker held its running chunk and at most two allowances of commits: \(held)")
                #expect(held.allSatisfy { $0.1 }, "trial \(trial): the dead worker's lease ends within one lease")
                let heldChunks = held.map(\.0)
                if !heldChunks.isEmpty { hits += 1 }
                print("WorkerKillTrialTests: trial \(trial): killed \(delay) ms after the first claim, "
                    + (heldChunks.isEmpty ? "holding no chunk" : "holding chunks \(heldChunks)"))

                let rescuer = try fixture.startWorker("rescuer-\(trial)", store: store, slots: 2, lease: "1")
                try await waitForCompletion(of: id, by: rescuer, reader: reader, " of trial \(trial)")

                let result = try fixture.result()
                let journal = try reader.journal(of: id)
                let rescues = journal.filter { $0.event == .claimed }.compactMap { entry -> (chunk: Int, from: String)? in
                    guard let from = entry.detail["rescued_from"], let chunk = entry.detail["chunk"].flatMap({ Int($0) }) else { return nil }
                    return (chunk, from)
                }
                #expect(Set(rescues.filter { $0.from.hasSuffix(":\(doomed.pid)") }.map(\.chunk)) == Set(heldChunks),
                        "trial \(trial): the held chunks, and only they, were rescued from the killed worker: \(rescues)")
                // On a loaded machine the rescuer's own 1 s lease may run out too (its renewal
                // starved): its other slot then rescues that chunk from it, and self-fencing keeps
                // the commit single. No other worker exists to rescue anything from.
                #expect(rescues.allSatisfy { $0.from.hasSuffix(":\(doomed.pid)") || $0.from.hasSuffix(":\(rescuer.pid)") },
                        "trial \(trial): \(rescues)")
                #expect(result.committed == Array(0..<units), "trial \(trial)")
                for unit in 0..<units {
                    // A chunk runs once more for each rescue of it (the run it was taken from may have
                    // got under way); a chunk never rescued ran once.
                    let allowed = 1...(1 + rescues.filter { $0.chunk == unit }.count)
                    #expect(allowed.contains(result.executions[String(unit)] ?? 0),
                            "trial \(trial): unit \(unit) ran \(result.executions[String(unit)] ?? 0) times")
                }
                let check = try leaseCheck(journal, of: id, in: reader)
                #expect(check.violations == [], "trial \(trial)")
                #expect(check.overruns == [], "trial \(trial)")
                #expect(check.refusedCommits == 0, "trial \(trial)")
            }
            print("WorkerKillTrialTests: \(hits) of \(Self.trials) kills hit a chunk in flight (floor \(Self.hitFloor))")
            #expect(hits >= Self.hitFloor, "only \(hits) of \(Self.trials) kills hit a chunk in flight")
        }
    }
}
