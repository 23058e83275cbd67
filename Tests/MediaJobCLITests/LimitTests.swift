import EngineTestKit
import Foundation
import Glibc
import Testing

/// The machine's limits: open files, memory, heat.
@Suite struct LimitTests {
    @Test func aLowOpenFileLimitIsRefusedUpFrontWithWhatToDo() throws {
        let fixture = CLIFixture()
        let refused = try fixture.run("selftest", fixture.selftest(units: 4, unitMilliseconds: 1),
                                      launcher: ["/usr/bin/prlimit", "--nofile=20"])
        #expect(refused.status == 1, "a clear failure, not a crash: \(refused.stderr)")
        #expect(refused.stderr.contains("Error: the open-file limit is 20 (hard limit 20)"))
        #expect(refused.stderr.contains("ulimit -n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("state/jobs.sqlite")), "no job was started")
    }

    @Test func aLowSoftLimitIsRaisedToTheHardOneWhichBoundsChunksAtOnceAndTheExportCompletes() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("mini.zip")
        let roomy = try FakeSysfs(in: fixture.folder, cpus: 64, availableMiB: 65_536)
        let result = try fixture.run("export", [try MiniProject.make(in: fixture.folder), "--output", output, "--json"],
                                     environment: roomy.environment, launcher: ["/usr/bin/prlimit", "--nofile=16:64"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == (try MiniProject.referenceArchive()))
        let id = try #require(result.events.first?[string: "job_id"])
        #expect(try StoredJob(fixture, id: id).journalHas("chunks_at_once", "8"),
                "64 CPUs, but (64 − 32) / 4 descriptors' worth of chunks")
    }

    @Test func chunksAtOnceAreBoundedByUsableMemoryAsWellAsCPUs() throws {
        let fixture = CLIFixture()
        for (available, expected) in [(600, 1), (2_048, 4), (65_536, 8)] {
            let sysfs = try FakeSysfs(in: TemporaryDirectory(), cpus: 8, availableMiB: available)
            let probe = try fixture.run("probe", ["--json"], environment: sysfs.environment)
            let report = try #require(CLIProcess.object(Substring(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
            #expect(report[number: "usable_cpus"] == 8)
            #expect(report[number: "chunks_at_once"] == Double(expected), "\(available) MiB available at 512 MiB a chunk")
        }
        let starved = try FakeSysfs(in: fixture.folder, cpus: 8, availableMiB: 600)
        let export = try fixture.run("export", [try MiniProject.make(in: fixture.folder), "--output", fixture.folder.path("m.zip"),
                                                "--json"], environment: starved.environment)
        #expect(export.status == 0, "\(export.stderr)")
        let id = try #require(export.events.first?[string: "job_id"])
        #expect(try StoredJob(fixture, id: id).journalHas("chunks_at_once", "1"), "8 CPUs but memory for one chunk")
    }

    @Test func aCriticallyHotMachinePausesARunningJobAndResumeWaitsUntilItCools() throws {
        let fixture = CLIFixture()
        let sysfs = try FakeSysfs(in: fixture.folder, celsius: 45)
        let units = 20
        // 50 ms units: the second of work left after unit 2 is ten times the guard's 0.1 s between readings.
        let job = try fixture.start("selftest", fixture.selftest(units: units, unitMilliseconds: 50), environment: sysfs.environment)
        let second = try #require(job.waitForEvent { $0[string: "event"] == "progress" && $0[number: "units_done"] == 2 })
        // Held still while the zone heats, so the next boundary the job reaches is a hot one.
        job.send(SIGSTOP)
        try sysfs.setTemperature(105)
        job.send(SIGCONT)
        let paused = job.finish()
        #expect(paused.status == 75)
        #expect(paused.stderr.contains("thermal state critical: thermal_zone0 at 105 °C"), "\(paused.stderr)")
        #expect(paused.events.last?[string: "outcome"] == "paused")
        let id = try #require(second[string: "job_id"])
        let status = try fixture.status(id)
        #expect(status[string: "state"] == "paused")
        #expect((status[number: "units_done"] ?? 99) < Double(units))
        #expect(status[string: "message"]?.contains("too hot") == true)

        let refused = try fixture.run("resume", [id], environment: sysfs.environment)
        #expect(refused.status == 75)
        #expect(refused.stderr.contains("was not resumed: the machine is too hot"), "\(refused.stderr)")
        #expect(try fixture.status(id)[string: "state"] == "paused")

        try sysfs.setTemperature(60)
        let resumed = try fixture.run("resume", [id], environment: sysfs.environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try fixture.result().committed == Array(0..<units))
    }
}
