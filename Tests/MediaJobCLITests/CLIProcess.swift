import Foundation
import Synchronization

/// The built `mediajob` binary, run as a child process with its output captured as it comes.
final class CLIProcess: Sendable {
    /// What a finished run left.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output's JSON lines.
        var events: [[String: Any]] { stdout.split(separator: "\n").compactMap(CLIProcess.object) }
    }

    /// `mediajob`, built beside the test bundle by `swift build`.
    static let binary: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("mediajob")
    }()

    private let process: Process
    private let stdout = OutputBuffer()
    private let stderr = OutputBuffer()
    private let outPipe = Pipe(), errPipe = Pipe()

    /// Starts `mediajob arguments…`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw CLIError.notBuilt(Self.binary.path)
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        let stdout = self.stdout, stderr = self.stderr
        outPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            stdout.append(data)
        }
        errPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            stderr.append(data)
        }
        try process.run()
    }

    /// Runs `mediajob arguments…` to the end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try CLIProcess(arguments, environment: environment).finish()
    }

    /// The process identifier.
    var pid: Int32 { process.processIdentifier }

    /// Sends a signal.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for a JSON line on standard output that `matches`, returning it; `nil` if the process
    /// ends first. The 120-second limit only guards against a hung test.
    func waitForEvent(_ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var scanned = 0
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let lines = String(decoding: stdout.data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let complete = lines.dropLast() // the last piece may be a partial line
            for line in complete.dropFirst(scanned) {
                scanned += 1
                if let object = Self.object(line), matches(object) { return object }
            }
            if !process.isRunning, scanned >= complete.count { return nil }
            usleep(2_000)
        }
        return nil
    }

    /// Waits for the process to end and returns what it left.
    func finish() -> Result {
        process.waitUntilExit()
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = outPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = errPipe.fileHandleForReading.readDataToEndOfFile()
        stdout.append(restOut)
        stderr.append(restErr)
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdout.data, as: UTF8.self),
                      stderr: String(decoding: stderr.data, as: UTF8.self))
    }

    static func object(_ line: Substring) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    enum CLIError: Error, CustomStringConvertible {
        case notBuilt(String)
        var description: String {
            switch self {
            case .notBuilt(let path): "\(path) is missing; run `swift build` before `swift test`"
            }
        }
    }
}

/// Bytes a pipe delivered so far.
private final class OutputBuffer: Sendable {
    private let bytes = Mutex(Data())

    func append(_ data: Data) { bytes.withLock { $0.append(data) } }

    var data: Data { bytes.withLock { $0 } }
}
