import Foundation
import GPURender
import XCTest

/// `Scripts/gpu-check --here` prepares the check's folder and runs the check on this machine's
/// device, as it would run on a GPU machine. Here it takes the programs `swift test` built
/// (`--built`), so that CI builds nothing more, and measures each figure briefly.
final class GPUCheckScriptTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testTheCheckRunsHereAndEveryParityCheckPasses() throws {
        let built = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpu-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("Scripts/gpu-check")
        process.currentDirectoryURL = Self.root
        process.arguments = ["--here", "--folder", folder.path, "--built", built.path, "--seconds", "0"]
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // What it prints is a few lines, well within the pipes' buffers, so it can wait first.
        guard finished.wait(timeout: .now() + 600) == .success else {
            process.terminate()
            return XCTFail("Scripts/gpu-check --here did not finish within 10 minutes")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, log)
        let path = try XCTUnwrap(String(decoding: printed, as: UTF8.self).split(separator: "\n").last.map(String.init))
        XCTAssertEqual(path, folder.appendingPathComponent("gpu-check.json").path, "the JSON's path is printed last")
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertEqual(result["passed"] as? Bool, true, log)
        XCTAssertEqual(result["self_test_passed"] as? Bool, true)
        let parity = try XCTUnwrap(result["parity"] as? [[String: Any]])
        XCTAssertEqual(parity.count, 5, "two photos and three video edits")
        for check in parity {
            XCTAssertEqual(check["passed"] as? Bool, true, "\(check)")
        }
        let throughput = try XCTUnwrap(result["throughput"] as? [String: Any])
        for figure in ["photo_megapixels_per_second", "frames_per_second", "planes_frames_per_second"] {
            XCTAssertGreaterThan(throughput[figure] as? Double ?? 0, 0, figure)
        }
        let cpu = try XCTUnwrap(result["cpu"] as? [String: Any])
        XCTAssertGreaterThan(cpu["photo_megapixels_per_second"] as? Double ?? 0, 0)
        XCTAssertGreaterThan(result["frame_ratio"] as? Double ?? 0, 0)
        let size = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])
            .map { try $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 }.reduce(0, +)
        XCTAssertLessThan(size, 64 << 20, "the folder fits what the GPU machine takes")
    }
}
