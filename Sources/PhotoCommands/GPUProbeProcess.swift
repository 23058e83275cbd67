import Foundation
import GPURender
import MediaJobCLI
import PhotoJobs
import Synchronization

/// Probes Vulkan in a child `mediajob probe --json`, so that a job process on a machine whose
/// drivers offer no usable GPU never loads them (see ``GPUSelection/current()``). Commands that
/// are likely to render start the child at once, so that it runs while they read their inputs and
/// plan; others start it when a chunk first asks for the GPU (``report()``).
package final class GPUProbeProcess: @unchecked Sendable { // report() runs under GPUSelection's lock, one caller at a time
    /// Set in the child so that it probes in its own process.
    package static let inProcessVariable = "MEDIAJOB_GPU_PROBE_IN_PROCESS"

    private let process = Process()
    private let output = Pipe()
    private let result = Mutex<GPUReport??>(nil)

    /// Makes ``GPUSelection/current()`` ask a child process first, unless this process is that
    /// child. The child starts now when `arguments` are a command likely to render on the GPU.
    package static func install(arguments: ParsedArguments, environment: [String: String]) {
        guard environment[inProcessVariable] == nil else { return }
        let child = GPUProbeProcess(environment: environment)
        if probesAtOnce(arguments) { child.start() }
        GPUSelection.setPreflight { child.report() }
    }

    /// Whether the command is likely to render, so that the child should start at once: export,
    /// resume and restart unless `--gpu off`; compress with `--max-size` (unless `--gpu off`) or
    /// `--gpu on`; thumbnail only with `--gpu on`. A compress without `--max-size` renders only a
    /// video that is turned (its display matrix), which asks for the GPU when its segment starts:
    /// the child would otherwise take CPU time from the first encoders for nothing (issue 15).
    package static func probesAtOnce(_ arguments: ParsedArguments) -> Bool {
        let gpu = arguments.value("gpu")
        switch arguments.command {
        case "export", "resume", "restart": return gpu != GPUPreference.off.rawValue
        case "compress":
            return gpu == GPUPreference.on.rawValue || (arguments.value("max-size") != nil && gpu != GPUPreference.off.rawValue)
        case "thumbnail": return gpu == GPUPreference.on.rawValue
        default: return false
        }
    }

    private init(environment: [String: String]) {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["probe", "--json"]
        process.environment = environment.merging([Self.inProcessVariable: "1"]) { _, new in new }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
    }

    private func start() {
        if (try? process.run()) == nil { result.withLock { $0 = .some(nil) } }
    }

    /// The child's report, waiting for it (and starting it first if need be); `nil` when it
    /// could not be run or read, and the caller then probes in its own process.
    package func report() -> GPUReport? {
        if let known = result.withLock({ $0 }) { return known }
        if !process.isRunning && process.processIdentifier == 0 { start() }
        if let failed = result.withLock({ $0 }) { return failed }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = Self.decode(data, status: process.terminationStatus)
        result.withLock { $0 = .some(report) }
        return report
    }

    private static func decode(_ data: Data, status: Int32) -> GPUReport? {
        guard status == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let vulkan = object["vulkan"], let json = try? JSONSerialization.data(withJSONObject: vulkan) else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(GPUReport.self, from: json)
    }
}
