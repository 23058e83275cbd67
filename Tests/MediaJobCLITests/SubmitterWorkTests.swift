import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// The process that submits a job to a PostgreSQL store (without `--detach`) works on it beside
/// the workers, under the same leases, and the workers finish it if that process dies.
@Suite struct SubmitterWorkTests {
    /// Two workers and the submitter export the sample project. The submitter has one slot (one
    /// CPU, imitated) and is held at its first chunk until the workers have done every other one,
    /// so both really take part; then it finishes, showing progress, and the package is
    /// byte-identical to one machine's export with SQLite.
    @Test func theSubmitterWorksBesideTwoWorkersAndTheSampleExportIsByteIdenticalToOneMachines() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let reference = fixture.folder.path("one-machine.zip")
            let alone = try CLIProcess.run(["export", sampleProject.path, "--output", reference,
                                            "--state-dir", fixture.folder.path("alone")])
            try #require(alone.status == 0, "\(alone.stderr)")

            let workers = try (0..<2).map { n in
                try CLIProcess(["worker", "--store", store, "--slots", "1", "--lease", "5",
                                "--state-dir", fixture.folder.path("worker\(n)")])
            }
            let output = fixture.folder.path("sample.zip")
            let oneCPU = try FakeSysfs(in: fixture.folder, cpus: 1)
            let hold = try HeldStep(in: fixture.folder, name: "submitter.fifo")
            let submitter = try fixture.start("export", [sampleProject.path, "--output", output, "--store", store, "--lease", "5", "--json"],
                                              environment: hold.environment(point: "chunk", hit: 1).merging(oneCPU.environment) { $1 })
            try #require(hold.waitUntil(submitter, isHeldAt: "the submitter's first chunk"))
            let reader = try PostgresJobStore(store)
            let id = try #require(try reader.jobs().first?.id)
            try await waitUntil("the workers did every chunk but the one the submitter holds", limit: .seconds(600)) {
                try reader.chunks(of: id).filter { !$0.isDone }.count == 1
            }
            hold.release()
            let ended = submitter.finish("complete the export")
            #expect(ended.status == 0, "\(ended.stderr)")
            let events = ended.stdout.split(separator: "\n").compactMap { CLIProcess.object($0)?[string: "event"] }
            #expect(events.contains("progress"), "the submitter showed progress: \(events)")
            #expect(events.last == "completed")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: reference)),
                    "the package is byte-identical to one machine's")

            stopWorkers(workers)
            let journal = try reader.journal(of: id)
            let check = try leaseCheck(journal, of: id, in: reader)
            #expect(check.violations == [], "every unit committed exactly once")
            #expect(check.refusedCommits == 0)
            let claimers = claimingProcesses(journal)
            #expect(claimers.contains(String(submitter.pid)), "the submitter claimed chunks: \(claimers)")
            #expect(!claimers.isDisjoint(with: workers.map { String($0.pid) }), "the workers claimed chunks: \(claimers)")
        }
    }

    /// The submitter is held at its second chunk and killed there with SIGKILL, holding that
    /// chunk's lease (asserted in the database); `status` from its state folder or another still
    /// shows the job running, and two workers started afterwards rescue the chunk once the 1 s lease
    /// has run out and complete the job: every unit committed once and run once.
    @Test func workersFinishAJobWhoseSubmitterWasKilledMidChunk() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let units = 6
            let hold = try HeldStep(in: fixture.folder, name: "submitter.fifo")
            let submitter = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 10) + ["--store", store, "--lease", "1"],
                                              environment: hold.environment(point: "chunk", hit: 2))
            try #require(hold.waitUntil(submitter, isHeldAt: "the submitter's second chunk"))
            let reader = try PostgresJobStore(store)
            let id = try #require(try reader.jobs().first?.id)
            try await waitUntilDone(1, chunksOf: id, in: reader)
            let held = try schema.connect().query("SELECT idx FROM chunks WHERE job_id = $1 AND NOT done AND lease_owner LIKE $2",
                                                  id.rawValue, "%:\(submitter.pid)").map { try $0["idx"] as Int }
            #expect(held == [selfTestClaimOrder(units: units)[1]], "the submitter dies holding its second chunk's lease, unit 3's")
            submitter.send(SIGKILL)
            #expect(submitter.finish("die of SIGKILL").status != 0)
            hold.release()
            // The job was left to workers: no state folder, its submitter's included, takes it for interrupted.
            for folder in ["state", "elsewhere"] {
                let status = try CLIProcess.run(["status", id.rawValue, "--json", "--store", store, "--state-dir", fixture.folder.path(folder)])
                let state = CLIProcess.object(Substring(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))?[string: "state"]
                #expect(state == "running", "status from \(folder): \(status.stdout)")
            }

            let workers = try (0..<2).map { n in
                try CLIProcess(["worker", "--store", store, "--slots", "1", "--lease", "1", "--state-dir", fixture.folder.path("worker\(n)")])
            }
            try await waitUntil("job \(id.short) is completed by the workers", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            stopWorkers(workers)
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }),
                    "every unit ran once: the killed submitter was held before its second unit began")
            try expectOneRescue(of: selfTestClaimOrder(units: units)[1], from: submitter.pid, job: id, in: reader)
        }
    }
}
