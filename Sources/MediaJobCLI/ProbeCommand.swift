import Foundation
import JobEngine

/// `mediajob probe`: what this machine offers jobs.
enum ProbeCommand: Command {
    static let name = "probe"
    static let synopsis = "[--json] [--state-dir DIR]"
    static let summary = "Report CPUs, memory, disk and thermal state as jobs see them"
    static let discussion = """
        Reports the CPUs this process may use (online, affinity, cgroup quota), memory (available
        and the cgroup limit), free disk in the state folder, and the thermal state from
        /sys/class/thermal. The default number of concurrent jobs, and of chunks each job runs at
        once (one per usable CPU, and per 512 MiB of usable memory), are derived from these.
        Set MEDIAJOB_SYSFS_ROOT to read /proc and /sys from another folder (for tests).
        """
    static let options = [CommonOptions.stateDir, CommonOptions.json]

    static func run(_ context: CommandContext) async throws -> Int32 {
        try context.arguments.none()
        let report = context.hostReport
        if context.json {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var object = try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any] ?? [:]
            object["thermal_state"] = report.thermal.state.rawValue
            object["usable_cpus"] = report.cpu.usable
            object["usable_memory_bytes"] = report.memory.usableBytes
            object["default_max_jobs"] = report.defaultMaxJobs
            object["chunks_at_once"] = context.chunkParallelism
            object["supported_resources"] = ["cpu"]
            context.console.json(object)
            return ExitCode.completed
        }
        let gib = { (bytes: UInt64) in String(format: "%.1f GiB", Double(bytes) / 1_073_741_824) }
        let quota = report.cpu.cgroupQuota.map { String(format: "%.2f", $0) } ?? "none"
        let memoryLimit = report.memory.cgroupLimitBytes.map(gib) ?? "none"
        context.console.out("""
            CPUs:     \(report.cpu.usable) usable (online \(report.cpu.online), affinity \(report.cpu.affinity), cgroup quota \(quota))
            Memory:   \(gib(report.memory.usableBytes)) usable (available \(gib(report.memory.availableBytes)) of \(gib(report.memory.totalBytes)), cgroup limit \(memoryLimit))
            Disk:     \(report.disk.freeBytes.map(gib) ?? "unknown") free at \(report.disk.path)
            Thermal:  \(report.thermal.state.rawValue) (\(report.thermal.zones.count) zone(s))
            Jobs:     \(report.defaultMaxJobs) at once by default, each running \(context.chunkParallelism) chunk(s) at once
            GPU:      not probed by this build; jobs render on the CPU
            """)
        return ExitCode.completed
    }
}
