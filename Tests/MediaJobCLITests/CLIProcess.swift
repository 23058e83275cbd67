import Foundation
import Glibc
import Synchronization
import Testing

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
    private let readers = DispatchGroup()
    private let running = DispatchGroup()

    /// How long any wait on the process may take before the test fails naming what it waited for:
    /// a guard against a hung test, not a timing assertion.
    static let deadline: TimeInterval = 180

    /// Starts `mediajob arguments…`, or `launcher… mediajob arguments…` when a launcher is given
    /// (for example `prlimit --nofile=32` to run it under that limit, or `setpriv --reuid …` to run
    /// it as another user).
    init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
         workingDirectory: URL? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw CLIError.notBuilt(Self.binary.path)
        }
        let process = Process()
        let command = launcher + [Self.binary.path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        running.enter()
        process.terminationHandler = { [running] _ in running.leave() }
        try process.run()
        // Plain blocking reads on worker threads, not readabilityHandler: Foundation's dispatch
        // sources on pipe descriptors crashed libdispatch here when many processes came and went.
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        for (pipe, buffer) in [(outPipe, stdout), (errPipe, stderr)] {
            let handle = pipe.fileHandleForReading
            readers.enter()
            Thread.detachNewThread { [readers] in // a thread of its own: the read blocks
                buffer.drain(handle.fileDescriptor)
                // Closed here, not left to deallocation: a Process given a terminationHandler is
                // never freed by Foundation on Linux, and kept its pipes open; the suite's process
                // reached 1,300 descriptors and crashed inside Process.run().
                try? handle.close()
                readers.leave()
            }
        }
    }

    /// Runs `mediajob arguments…` to the end.
    static func run(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
                    workingDirectory: URL? = nil) throws -> Result {
        try CLIProcess(arguments, environment: environment, launcher: launcher, workingDirectory: workingDirectory).finish()
    }

    /// The process identifier.
    var pid: Int32 { process.processIdentifier }

    /// Sends a signal.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for a JSON line on standard output that `matches`, returning it; `nil` if the process
    /// ends first or ``deadline`` passes (then the test fails, naming `what`).
    func waitForEvent(_ what: String = "a JSON event", _ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var scanned = 0
        return wait(for: what) {
            let lines = String(decoding: stdout.data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let complete = lines.dropLast() // the last piece may be a partial line
            for line in complete.dropFirst(scanned) {
                scanned += 1
                if let object = Self.object(line), matches(object) { return object }
            }
            return nil
        }
    }

    /// Waits until standard error contains `text`; `false` if the process ends first or
    /// ``deadline`` passes (then the test fails, naming the text).
    @discardableResult
    func waitForStderr(containing text: String) -> Bool {
        wait(for: "standard error to say \"\(text)\"") {
            String(decoding: stderr.data, as: UTF8.self).contains(text) ? true : nil
        } ?? false
    }

    /// Waits until `condition` holds (a file appears, a pipe has a reader); `false` if the process
    /// ends first or ``deadline`` passes (then the test fails, naming `what`).
    @discardableResult
    func waitUntil(_ what: String, _ condition: () -> Bool) -> Bool {
        wait(for: what) { condition() ? true : nil } ?? false
    }

    /// Polls `found` until it gives a value, the process has ended with nothing more to find, or
    /// ``deadline`` passes; records a test failure naming `what` in the last case.
    private func wait<T>(for what: String, _ found: () -> T?) -> T? {
        let deadline = Date().addingTimeInterval(Self.deadline)
        while Date() < deadline {
            let ended = running.wait(timeout: .now()) == .success
            if let value = found() { return value }
            if ended { return nil }
            usleep(2_000) // polling a pipe's buffer: the deadline above bounds it
        }
        Issue.record("mediajob (pid \(pid)) did not deliver \(what) within \(Int(Self.deadline)) s")
        return nil
    }

    /// Waits for the process to end and returns what it left. A process still running after
    /// `limit` seconds (``deadline`` unless a test bounds it tighter) is killed, and the test fails
    /// naming `what` it was expected to do.
    func finish(_ what: String = "end", within limit: TimeInterval = deadline) -> Result {
        if running.wait(timeout: .now() + limit) == .timedOut {
            Issue.record("mediajob (pid \(pid)) did not \(what) within \(Int(limit)) s; killed")
            kill(process.processIdentifier, SIGKILL)
            running.wait()
        }
        readers.wait()
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

    /// Reads `descriptor` until end of file, keeping what it delivers.
    func drain(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                append(Data(chunk[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    var data: Data { bytes.withLock { $0 } }
}
