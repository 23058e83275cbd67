// The GPU check, prepared by Scripts/gpu-check to run on a machine with a GPU (DEVELOPERS.md):
//   gpu-check [--json PATH] [--seconds N]
// It reads manifest.json and the references beside it, probes the Vulkan devices (the self-test
// of every shader included), runs the parity checks, measures throughput for N seconds a figure
// (default 5), and writes one JSON file (default: gpu-check.json beside it). Exit 0 when a device
// was selected and every parity check passed, else 1.
import FoundationEssentials
import Glibc
import GPURender
import Vulkan

struct Result: Codable {
    var device: DeviceInfo?
    var probe: String
    var selfTestPassed: Bool
    var parity: [ParityCheck.Outcome]
    var throughput: Throughput.Figures?
    var cpu: GPUCheckManifest.CPUFigures?
    /// GPU ÷ CPU: photo megapixels a second, and 1080p → 720p frames a second (both with a colour change).
    var photoRatio: Double?
    var frameRatio: Double?
    var passed: Bool
    var seconds: Double
}

let started = ContinuousClock.now
let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
var output = folder.appendingPathComponent("gpu-check.json")
var seconds = 5.0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch (argument, arguments.popFirst()) {
    case ("--json", let path?): output = URL(fileURLWithPath: path)
    case ("--seconds", let value?) where Double(value) != nil: seconds = Double(value)!
    default:
        printError("usage: gpu-check [--json PATH] [--seconds N]")
        exit(64)
    }
}

func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func elapsed() -> Double {
    let duration = ContinuousClock.now - started
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

var result = Result(probe: "", selfTestPassed: false, parity: [], passed: false, seconds: 0)
do {
    let manifest = try JSONDecoder().decode(GPUCheckManifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
    result.cpu = manifest.cpu
    let selection = GPUSelection.probe(environment: ProcessInfo.processInfo.environment)
    result.probe = selection.report.reason
    if let renderer = selection.renderer {
        // Probing selects a device only after its self-test passed.
        result.device = renderer.device
        result.selfTestPassed = true
        print("device: \(renderer.device.name) (\(renderer.device.type.rawValue), driver \(renderer.device.driverVersion))")
        result.parity = try ParityCheck.run(manifest, in: folder, on: renderer)
        for outcome in result.parity {
            print("parity \(outcome.name): \(outcome.decibels) dB (at least \(outcome.tolerance)) \(outcome.passed ? "passed" : "FAILED")")
        }
        let figures = try Throughput.run(on: renderer, seconds: seconds)
        result.throughput = figures
        result.photoRatio = figures.photoMegapixelsPerSecond / manifest.cpu.photoMegapixelsPerSecond
        result.frameRatio = figures.framesPerSecond / manifest.cpu.framesPerSecond
        print("photos \(figures.photoMegapixelsPerSecond) MP/s (\(result.photoRatio!)× the CPU path's), "
              + "1080p → 720p \(figures.framesPerSecond) frames/s (\(result.frameRatio!)×), "
              + "without colour \(figures.planesFramesPerSecond) frames/s")
        result.passed = result.parity.allSatisfy(\.passed)
    } else {
        print("no device selected: \(selection.report.reason)")
    }
} catch {
    result.probe += (result.probe.isEmpty ? "" : "; ") + "the check failed: \(error)"
    print("the check failed: \(error)")
}
result.seconds = elapsed()
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
encoder.keyEncodingStrategy = .convertToSnakeCase
encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
do {
    try encoder.encode(result).write(to: output)
} catch {
    printError("Error: cannot write \(output.path): \(error)")
    exit(1)
}
print(output.path)
exit(result.passed ? 0 : 1)
