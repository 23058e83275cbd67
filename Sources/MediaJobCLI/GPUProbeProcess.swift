import Foundation
import GPURender

/// Probes Vulkan in a child `mediajob probe --json`, so that a job process on a machine whose
/// drivers offer no usable GPU never loads them (see ``GPUSelection/current()``).
enum GPUProbeProcess {
    /// Set in the child so that it probes in its own process.
    static let inProcessVariable = "MEDIAJOB_GPU_PROBE_IN_PROCESS"

    /// Makes ``GPUSelection/current()`` ask a child process first, unless this process is that
    /// child (or a probe asked for in-process probing).
    static func install(environment: [String: String]) {
        guard environment[inProcessVariable] == nil else { return }
        GPUSelection.setPreflight { report(environment: environment) }
    }

    /// The child's report; `nil` when it could not be run or read (the caller then probes here).
    static func report(environment: [String: String]) -> GPUReport? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["probe", "--json"]
        process.environment = environment.merging([inProcessVariable: "1"]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let vulkan = object["vulkan"], let json = try? JSONSerialization.data(withJSONObject: vulkan) else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(GPUReport.self, from: json)
    }
}
