import EngineTestKit
import Foundation
import Testing

/// A package of its own (`Tests/Fixtures/HashFolder`) that depends on this one by path, as an
/// embedder's would: it must build against the products alone, pass its own EngineTestKit tests,
/// and run, pause and resume a job under its own names, with `MEDIAJOB_FAULT` set throughout.
@Suite struct ExternalPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let package = root.appendingPathComponent("Tests/Fixtures/HashFolder").path
    /// Kept between runs (under the ignored `.build`), so that only what changed is built again.
    static let scratch = root.appendingPathComponent(".build/fixtures/HashFolder").path
    /// The crash-test variable of `mediajob`, armed to kill at the first checkpoint: it must not
    /// reach a program that embeds the engine.
    static let environment = ProcessInfo.processInfo.environment.merging(["MEDIAJOB_FAULT": "checkpoint:1"]) { $1 }

    @Test func anEmbeddersPackageBuildsPassesItsTestsAndRunsPausesAndResumesAJob() throws {
        func swift(_ command: String, _ options: String...) -> [String] {
            ["swift", command, "--package-path", Self.package, "--scratch-path", Self.scratch] + options
        }
        try Tool.run("/usr/bin/env", swift("build", "--build-tests"), deadline: .seconds(1800))
        let tests = try Tool.run("/usr/bin/env", swift("test", "--skip-build"), environment: Self.environment,
                                 deadline: .seconds(600))
        #expect(tests.output.contains("2 tests in 1 suite passed"), "the fixture's own tests ran: \(tests.output)")
        let bin = try Tool.run("/usr/bin/env", swift("build", "--show-bin-path"), deadline: .seconds(600))
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let program = bin + "/hash-folder"

        let folder = TemporaryDirectory()
        let input = folder.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let names = ["a.txt", "b.bin", "c.txt", "d.txt"]
        for (index, name) in names.enumerated() {
            try Data((0..<(1000 * (index + 1))).map { UInt8(truncatingIfNeeded: $0 * 7 + index) }).write(to: input.appendingPathComponent(name))
        }
        let arguments = [input.path, folder.path("report.txt"), folder.path("state")]

        let paused = try Tool.run(program, arguments + ["--stop-after", "2"], environment: Self.environment,
                                  deadline: .seconds(120), expecting: 75)
        #expect(paused.output.contains("2/4") && paused.output.hasSuffix("paused\n"), "\(paused.output)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("report.txt")), "nothing partial is published")
        let workspace = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".report.txt.") }
        #expect(workspace.count == 1 && workspace[0].hasPrefix(".report.txt.hashfolder-"), "\(workspace)")

        let resumed = try Tool.run(program, arguments, environment: Self.environment, deadline: .seconds(120))
        #expect(resumed.output.contains("resumed") && resumed.output.contains("4/4") && !resumed.output.contains("1/4"),
                "\(resumed.output)")
        let reference = try Tool.run("/usr/bin/sha256sum", names, directory: input.path, deadline: .seconds(60)).output
        #expect(try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8) == reference)
    }
}

/// Runs a program to the end within a deadline, its output gathered in a file so that no pipe can fill.
enum Tool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                    deadline: Duration, expecting status: Int32 = 0) throws -> (output: String, status: Int32) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let seconds = Double(deadline.components.seconds)
        guard ended.wait(timeout: .now() + seconds) == .success else {
            process.terminate()
            throw Failure(description: "\(([path] + arguments).joined(separator: " ")) did not end within \(Int(seconds)) s")
        }
        let output = try String(contentsOf: log, encoding: .utf8)
        guard process.terminationStatus == status else {
            throw Failure(description: "\(([path] + arguments).joined(separator: " ")) exited \(process.terminationStatus), "
                          + "not \(status):\n\(output)")
        }
        return (output, process.terminationStatus)
    }
}
