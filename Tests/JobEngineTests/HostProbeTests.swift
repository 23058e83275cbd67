import Foundation
@testable import JobEngine
import Testing

/// A folder that imitates the `/proc` and `/sys` files ``HostProbe`` reads.
private struct FakeHostRoot {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("host-probe-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// One thermal zone with a passive trip at 80 °C and a critical one at 100 °C.
    func writeZone(_ name: String, milliCelsius: Int, passive: Int = 80_000, critical: String = "critical",
                   criticalTemp: Int = 100_000) throws {
        let zone = "sys/class/thermal/\(name)"
        try write("\(zone)/temp", "\(milliCelsius)\n")
        try write("\(zone)/trip_point_0_type", "passive\n")
        try write("\(zone)/trip_point_0_temp", "\(passive)\n")
        try write("\(zone)/trip_point_1_type", "\(critical)\n")
        try write("\(zone)/trip_point_1_temp", "\(criticalTemp)\n")
    }

    /// The machine of these tests: 8 CPUs online, 3 allowed, a quota of 1.5 CPUs, 16 GB of
    /// memory with 8 GB available, and a 4 GiB cgroup limit with 1 GiB used.
    func writeMachine() throws {
        try write("proc/self/status", "Name:\tmediajob\nCpus_allowed:\t13\nCpus_allowed_list:\t0-1,4\nVmRSS:\t100 kB\n")
        try write("sys/devices/system/cpu/online", "0-7\n")
        try write("sys/fs/cgroup/cpu.max", "150000 100000\n")
        try write("proc/meminfo", """
            MemTotal:       16000000 kB
            MemFree:         2000000 kB
            MemAvailable:    8000000 kB
            Buffers:          100000 kB

            """)
        try write("sys/fs/cgroup/memory.max", "4294967296\n")
        try write("sys/fs/cgroup/memory.current", "1073741824\n")
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

struct HostProbeTests {
    @Test func usableCPUsAreTheSmallestOfOnlineAffinityAndRoundedUpQuota() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        let cpu = HostProbe(root: root.url).cpu()
        #expect(cpu.online == 8)
        #expect(cpu.affinity == 3)
        #expect(cpu.cgroupQuota == 1.5)
        #expect(cpu.usable == 2)
    }

    @Test func affinityBoundsUsableCPUsWhenTheQuotaIsUnlimited() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        try root.write("sys/fs/cgroup/cpu.max", "max 100000\n")
        let cpu = HostProbe(root: root.url).cpu()
        #expect(cpu.cgroupQuota == nil)
        #expect(cpu.usable == 3)
    }

    @Test func tinyQuotaStillLeavesOneUsableCPU() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        try root.write("sys/fs/cgroup/cpu.max", "10000 100000\n")
        #expect(HostProbe(root: root.url).cpu().usable == 1)
    }

    @Test func missingAffinityFallsBackToOnlineCPUs() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.write("sys/devices/system/cpu/online", "0-5\n")
        let cpu = HostProbe(root: root.url).cpu()
        #expect(cpu.online == 6)
        #expect(cpu.affinity == 6)
        #expect(cpu.cgroupQuota == nil)
        #expect(cpu.usable == 6)
    }

    @Test func usableMemoryIsAvailableMemoryBoundedByWhatTheCgroupHasLeft() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        let memory = HostProbe(root: root.url).memory()
        #expect(memory.totalBytes == 16_000_000 * 1024)
        #expect(memory.availableBytes == 8_000_000 * 1024)
        #expect(memory.cgroupLimitBytes == 4 << 30)
        #expect(memory.cgroupUsedBytes == 1 << 30)
        #expect(memory.usableBytes == 3 << 30)
    }

    @Test func unlimitedMemoryCgroupLeavesAvailableMemoryUsable() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        try root.write("sys/fs/cgroup/memory.max", "max\n")
        let memory = HostProbe(root: root.url).memory()
        #expect(memory.cgroupLimitBytes == nil)
        #expect(memory.usableBytes == 8_000_000 * 1024)
    }

    @Test func cgroupUsingMoreThanItsLimitLeavesNothingUsable() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        try root.write("sys/fs/cgroup/memory.current", "\(5 << 30)\n")
        #expect(HostProbe(root: root.url).memory().usableBytes == 0)
    }

    @Test func defaultMaxJobsFollowsTheProbedMachine() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        let report = HostProbe(root: root.url).report(diskPath: root.url)
        #expect(report.defaultMaxJobs == 1)
    }

    @Test(arguments: [
        (50_000, HostReport.Thermal.State.nominal),
        (69_999, .nominal),
        (70_000, .fair),
        (79_000, .fair),
        (80_000, .serious),
        (99_000, .serious),
        (100_000, .critical),
        (120_000, .critical),
    ])
    func thermalStateFollowsTheTripPoints(milliCelsius: Int, expected: HostReport.Thermal.State) throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeZone("thermal_zone0", milliCelsius: milliCelsius)
        let thermal = HostProbe(root: root.url).thermal()
        #expect(thermal.zones == [HostReport.Thermal.Zone(name: "thermal_zone0", celsius: Double(milliCelsius) / 1000,
                                                            trips: ["passive": 80, "critical": 100])])
        #expect(thermal.state == expected)
    }

    @Test func hotTripCountsAsCriticalWhenThereIsNoCriticalTrip() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeZone("thermal_zone0", milliCelsius: 95_000, critical: "hot", criticalTemp: 90_000)
        #expect(HostProbe(root: root.url).thermal().state == .critical)
    }

    @Test func hottestZoneDecidesTheState() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeZone("thermal_zone0", milliCelsius: 40_000)
        try root.writeZone("thermal_zone1", milliCelsius: 85_000)
        try root.write("sys/class/thermal/cooling_device0/type", "fan\n")
        let thermal = HostProbe(root: root.url).thermal()
        #expect(thermal.zones.map(\.name) == ["thermal_zone0", "thermal_zone1"])
        #expect(thermal.state == .serious)
    }

    @Test func chunksAtOnceAreTheUsableCPUsBoundedByWhatUsableMemoryHolds() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine() // 2 usable CPUs; 3 GiB of memory usable (4 GiB cgroup limit, 1 GiB used)
        let report = HostProbe(root: root.url).report(diskPath: root.url)
        #expect(report.parallelism(memoryPerChunk: 512 << 20) == 2)
        #expect(report.parallelism(memoryPerChunk: 2 << 30) == 1)
        #expect(report.parallelism(memoryPerChunk: 8 << 30) == 1, "short of memory, one chunk at a time rather than none")
    }

    @Test func theThermalGuardHoldsWorkOnlyWhileAZoneIsCritical() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        let guardian = ThermalGuard(probe: HostProbe(root: root.url), interval: .zero)
        #expect(guardian.reasonToWait() == nil, "no zones: nothing to hold for")
        try root.writeZone("thermal_zone0", milliCelsius: 40_000)
        try root.writeZone("thermal_zone1", milliCelsius: 95_000)
        #expect(guardian.reasonToWait() == nil, "serious is not critical")
        try root.writeZone("thermal_zone1", milliCelsius: 104_600)
        #expect(guardian.reasonToWait() == "the machine is too hot (thermal state critical: thermal_zone1 at 105 °C, "
                + "trip point 100 °C); let it cool down, then resume")
    }

    @Test func theThermalGuardReadsTheZonesAgainOnlyOnceItsIntervalHasPassed() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeZone("thermal_zone0", milliCelsius: 40_000)
        let guardian = ThermalGuard(probe: HostProbe(root: root.url), interval: .seconds(3600))
        #expect(guardian.reasonToWait() == nil)
        try root.writeZone("thermal_zone0", milliCelsius: 104_600)
        #expect(guardian.reasonToWait() == nil, "the first reading stands for the interval")
        #expect(ThermalGuard(probe: HostProbe(root: root.url), interval: .seconds(3600)).reasonToWait() != nil,
                "a new guard reads the critical zone")
    }

    @Test func zoneWithoutTripPointsIsNominal() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.write("sys/class/thermal/thermal_zone0/temp", "150000\n")
        #expect(HostProbe(root: root.url).thermal().state == .nominal)
    }

    @Test func noThermalZonesMeansUnknown() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        let thermal = HostProbe(root: root.url).thermal()
        #expect(thermal.zones.isEmpty)
        #expect(thermal.state == .unknown)
    }

    @Test func diskIsMeasuredAtTheNearestExistingFolder() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        let disk = HostProbe(root: root.url).disk(at: root.url.appendingPathComponent("not/yet/there.mp4"))
        #expect(disk.path == root.url.path)
        let free = try #require(disk.freeBytes)
        let total = try #require(disk.totalBytes)
        #expect(total > 0)
        #expect(free <= total)
    }

    @Test(arguments: [
        ("0-3,8,10-11", 7),
        ("0", 1),
        ("0-7", 8),
        (" 0-1 , 4 ", 3),
        ("\t0-1,4", 3),
        ("", 0),
        ("3-1", 0),
        ("a-b,2", 1),
    ])
    func countCPUListCountsKernelCPULists(list: String, expected: Int) {
        #expect(HostProbe.countCPUList(list) == expected)
    }

    @Test func realMachineReportsSaneValues() {
        let report = HostProbe().report(diskPath: FileManager.default.temporaryDirectory)
        #expect(report.cpu.usable >= 1)
        #expect(report.cpu.usable <= max(report.cpu.online, report.cpu.affinity))
        #expect(report.memory.usableBytes <= report.memory.availableBytes)
        #expect(report.defaultMaxJobs >= 1)
        // The kernel's files report a size of 0: the whole of /proc/meminfo must still be read.
        let physical = UInt64(sysconf(Int32(_SC_PHYS_PAGES))) * UInt64(sysconf(Int32(_SC_PAGESIZE)))
        #expect(report.memory.totalBytes > 0 && report.memory.totalBytes <= physical,
                "MemTotal, from /proc/meminfo, is read and at most the kernel's physical memory")
    }
}

struct HostProbeCgroupTests {
    @Test func limitsOfTheProcessesOwnCgroupAndItsParentsApplyUnderCgroupV2() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.writeMachine()
        try root.write("proc/self/cgroup", "0::/jobs/batch\n")
        try root.write("sys/fs/cgroup/jobs/cpu.max", "50000 100000\n")
        try root.write("sys/fs/cgroup/jobs/batch/cpu.max", "max 100000\n")
        try root.write("sys/fs/cgroup/jobs/batch/memory.max", "1073741824\n")
        try root.write("sys/fs/cgroup/jobs/batch/memory.current", "536870912\n")
        let probe = HostProbe(root: root.url)
        #expect(probe.cgroupFolders(controller: "cpu") == ["sys/fs/cgroup/jobs/batch", "sys/fs/cgroup/jobs", "sys/fs/cgroup"])
        #expect(probe.cpu().cgroupQuota == 0.5, "the parent's quota is the tightest")
        #expect(probe.memory().cgroupLimitBytes == 1 << 30)
        #expect(probe.memory().cgroupUsedBytes == 1 << 29, "use is read from the process's own cgroup")
    }

    @Test func cgroupV1QuotasAndLimitsAreReadAndItsHugeNoLimitValueIgnored() throws {
        let root = try FakeHostRoot()
        defer { root.remove() }
        try root.write("proc/self/cgroup", "4:memory:/box\n2:cpu,cpuacct:/box\n0::/\n")
        try root.write("sys/fs/cgroup/cpu,cpuacct/box/cpu.cfs_quota_us", "250000\n")
        try root.write("sys/fs/cgroup/cpu,cpuacct/box/cpu.cfs_period_us", "100000\n")
        try root.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
        try root.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n")
        try root.write("sys/fs/cgroup/memory/box/memory.limit_in_bytes", "9223372036854771712\n")
        try root.write("sys/fs/cgroup/memory/box/memory.usage_in_bytes", "1000\n")
        let probe = HostProbe(root: root.url)
        #expect(probe.cpu().cgroupQuota == 2.5)
        #expect(probe.memory().cgroupLimitBytes == nil)
        #expect(probe.memory().cgroupUsedBytes == 1000)
    }
}
