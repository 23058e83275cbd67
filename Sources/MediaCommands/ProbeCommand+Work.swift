import Foundation
import GPURender
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands

extension ProbeCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
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
