import Foundation
import Testing

@Suite struct CommandLineTests {
    @Test func helpListsEveryCommandAndExitsZero() throws {
        let result = try CLIProcess.run(["help"])
        #expect(result.status == 0)
        for command in ["selftest", "jobs", "status", "cancel", "resume", "restart", "discard", "probe"] {
            #expect(result.stdout.contains("  \(command) "), "help lists \(command)")
        }
    }

    @Test func everyCommandExplainsItselfWithDashH() throws {
        for command in ["selftest", "jobs", "status", "cancel", "resume", "restart", "discard", "probe", "help"] {
            let result = try CLIProcess.run([command, "-h"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Usage: mediajob \(command)"))
            #expect(result.stdout.contains("--help"))
        }
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try CLIProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("mediajob "))
    }

    @Test func anUnknownCommandIsAUsageError() throws {
        let result = try CLIProcess.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown command 'frobnicate'"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadOptionValueIsAUsageErrorWithTheUsageLine() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("selftest", ["--units", "many"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: --units expects a whole number"))
        #expect(result.stderr.contains("Usage: mediajob selftest"))
    }

    @Test func anUnknownOptionIsAUsageError() throws {
        let result = try CLIFixture().run("jobs", ["--colour"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option '--colour'"))
    }

    @Test func naming_a_job_that_does_not_exist_says_how_to_list_jobs() throws {
        let result = try CLIFixture().run("status", ["deadbeef"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no job matches 'deadbeef'"))
        #expect(result.stderr.contains("mediajob jobs"))
    }

    @Test func probeReportsWhatTheInjectedSystemFilesSay() throws {
        let fixture = CLIFixture()
        let root = fixture.folder.url.appendingPathComponent("root")
        let files = [
            "sys/devices/system/cpu/online": "0-3",
            "proc/self/status": "Name:\tx\nCpus_allowed_list:\t0-3\n",
            "sys/fs/cgroup/cpu.max": "max 100000",
            "proc/meminfo": "MemTotal: 8000000 kB\nMemAvailable: 6000000 kB\n",
            "sys/class/thermal/thermal_zone0/temp": "99000",
            "sys/class/thermal/thermal_zone0/trip_point_0_type": "critical",
            "sys/class/thermal/thermal_zone0/trip_point_0_temp": "95000",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let result = try fixture.run("probe", ["--json"], environment: ["MEDIAJOB_SYSFS_ROOT": root.path])
        #expect(result.status == 0)
        let report = try #require(CLIProcess.object(Substring(result.stdout)))
        #expect(report[string: "thermal_state"] == "critical")
        #expect(report[number: "usable_cpus"] == 4)
        let usableMemory = (report["usable_memory_bytes"] as? NSNumber)?.int64Value
        #expect(usableMemory == Int64(6_144_000_000))
    }
}
