import Foundation
import GPURender
import JobEngine
import MediaJobs

/// `mediajob probe`: what this machine offers jobs.
enum ProbeCommand: Command {
    static let name = "probe"
    static let synopsis = "[--benchmark] [--json] [--state-dir DIR]"
    static let summary = "Report CPUs, memory, disk, thermal state and Vulkan GPUs as jobs see them"
    static let discussion = """
        Reports the CPUs this process may use (online, affinity, cgroup quota), memory (available
        and the cgroup limit), free disk in the state folder, the thermal state from
        /sys/class/thermal, and every Vulkan device: type, driver, API version, compute queues,
        device-local memory, the limits that matter, and whether jobs render on it and why.
        The default number of concurrent jobs, and of chunks each job runs at once (one per
        usable CPU, and per 512 MiB of usable memory), are derived from these.

        A device renders only when it is a real GPU with a compute queue that passes a self-test
        of the render shaders. Software devices (llvmpipe) are slower than the CPU path and are
        used only with MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1. With --gpu auto, photos and video each
        render on the GPU only where it measured faster than the CPU: --benchmark records its
        figures per device and driver version in the state folder (render-benchmark.json), and
        a job measures them first when there are none for the present device and driver
        (MEDIAJOB_BENCHMARK_ROUNDS sets how many pictures, default 4). Set MEDIAJOB_SYSFS_ROOT to read /proc
        and /sys from another folder (for tests), MEDIAJOB_VULKAN_LOADER to use another loader.
        """
    static let options = [
        OptionSpec.flag("benchmark", "also measure render throughput on the CPU and on the selected GPU (about a minute)"),
        CommonOptions.stateDir, CommonOptions.json,
    ]

    static func run(_ context: CommandContext) async throws -> Int32 {
        try context.arguments.none()
        let report = context.hostReport
        // Here, not in a child: probe lists every device, and --benchmark renders.
        let gpu = GPUSelection.probe(environment: context.environment)
        let benchmark = context.arguments.has("benchmark") ? try RenderBenchmark.run(gpu: gpu.renderer) : nil
        if let renderer = gpu.renderer, let figures = benchmark?.gpu {
            try RenderBenchmarkRecord(device: renderer.device, cpu: benchmark!.cpu, gpu: figures).save(in: context.stateDirectory)
        }
        let autoPaths = AutoRenderPaths.description(gpu.report, folder: context.stateDirectory)
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
            object["supported_resources"] = gpu.renderer == nil ? ["cpu"] : ["cpu", "gpu"]
            object["vulkan"] = try JSONSerialization.jsonObject(with: encoder.encode(gpu.report))
            object["auto_paths"] = autoPaths?.json ?? NSNull()
            if let benchmark {
                object["render_benchmark"] = [
                    "cpu": try JSONSerialization.jsonObject(with: encoder.encode(benchmark.cpu)),
                    "gpu": try benchmark.gpu.map { try JSONSerialization.jsonObject(with: encoder.encode($0)) } ?? NSNull(),
                    "gpu_device": gpu.renderer?.device.name ?? NSNull(),
                ] as [String: Any]
            }
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
            GPU:      \(gpu.renderer == nil ? "none; jobs render on the CPU" : "yes"): \(gpu.report.reason)
            """)
        for (index, device) in gpu.report.devices.enumerated() {
            context.console.out(describe(device, index: index))
        }
        if let autoPaths { context.console.out("Auto:     \(autoPaths.text)") }
        if let benchmark {
            let line = { (name: String, figures: RenderBenchmark.Figures) in
                String(format: "  %@  photos %.1f MP/s, video %.1f frames/s (%.1f MP/s)", name,
                       figures.photoMegapixelsPerSecond, figures.framesPerSecond, figures.frameMegapixelsPerSecond)
            }
            context.console.out("Render:   uploads and downloads counted\n" + line("CPU:", benchmark.cpu)
                                + (benchmark.gpu.map { "\n" + line("GPU:", $0) + " on \(gpu.renderer!.device.name)" } ?? ""))
        }
        return ExitCode.completed
    }

    /// One device, as lines under the summary.
    private static func describe(_ device: GPUReport.Device, index: Int) -> String {
        let info = device.info
        let mib = { (bytes: UInt64) in "\(bytes >> 20) MiB" }
        return """
              [\(index)] \(info.name) (\(info.type.rawValue), vendor 0x\(String(info.vendorID, radix: 16)))\(device.selected ? " — selected" : "")
                  driver \(info.driverName ?? "unknown") \(info.driverVersion)\(info.driverInfo.map { " (\($0))" } ?? ""), Vulkan \(info.apiVersion)
                  compute queue families \(info.computeQueueFamilies.map(String.init).joined(separator: ", ")), device-local memory \(mib(info.deviceLocalMemoryBytes))
                  max workgroup \(info.maxWorkgroupSize.map(String.init).joined(separator: "×")) (\(info.maxWorkgroupInvocations) invocations), max storage buffer \(mib(UInt64(info.maxStorageBufferRange)))
                  \(device.selected ? "selected" : "not selected"): \(device.reason)
            """
    }
}
