import Foundation
import Glibc
import Synchronization

/// Media made for end-to-end tests with the ffmpeg command-line tool, and measurements with it.
public enum MediaFixtures {
    /// Runs `ffmpeg -v error -y <arguments>` and returns its standard error.
    @discardableResult
    public static func ffmpeg(_ arguments: [String]) throws -> String {
        try tool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
    }

    /// Runs the program at `path` to the end and returns its standard error.
    /// - Throws: ``FixtureError`` with what it said when it exits with a failure.
    @discardableResult
    public static func tool(_ path: String, _ arguments: [String]) throws -> String {
        try run(path, arguments).errors
    }

    /// Runs the program at `path` to the end and returns its standard output and error, both
    /// read as they come so that neither pipe can fill up and stall it.
    /// - Throws: ``FixtureError`` with what it said when it exits with a failure, or when it is
    ///   still running after `limit` (it is then killed).
    public static func run(_ path: String, _ arguments: [String], limit: TimeInterval = 600) throws -> (output: String, errors: String) {
        let (output, errors) = try runCapturing(path, arguments, limit: limit)
        return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// The same, with standard output as bytes (raw video, for example).
    /// - Throws: ``FixtureError`` as ``run(_:_:limit:)`` does.
    public static func runCapturing(_ path: String, _ arguments: [String], limit: TimeInterval = 600) throws -> (output: Data, errors: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchGroup()
        exited.enter()
        process.terminationHandler = { _ in exited.leave() }
        try process.run()
        let collected = Mutex([Data(), Data()]) // standard output, standard error
        let drained = DispatchGroup()
        for (slot, pipe) in [output, errors].enumerated() {
            DispatchQueue.global().async(group: drained) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                try? pipe.fileHandleForReading.close() // see CLIProcess: Foundation would leave it open
                collected.withLock { $0[slot] = data }
            }
        }
        let finished = exited.wait(timeout: .now() + limit) == .success
        if !finished {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        drained.wait() // the pipes end with the process (tools here start no children that outlive them)
        let (outputData, errorData) = collected.withLock { ($0[0], $0[1]) }
        let text = String(decoding: errorData, as: UTF8.self)
        guard finished else { throw FixtureError(message: "\(path) \(arguments) was still running after \(Int(limit)) s; killed. \(text)") }
        guard process.terminationStatus == 0 else { throw FixtureError(message: "\(path) \(arguments): \(text)") }
        return (outputData, errorData)
    }

    /// A test clip: testsrc2 at `size` and 25 fps for `seconds`, a keyframe every second, with a tone.
    public static func clip(_ path: String, size: String = "320x240", seconds: Int = 3, audio: Bool = true) throws {
        var arguments = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"] }
        arguments += ["-t", String(seconds), "-g", "25", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"]
        if audio { arguments += ["-c:a", "aac"] }
        try ffmpeg(arguments + [path])
    }

    /// The PSNR (dB) of `distorted`'s video against `reference`'s, through ffmpeg's psnr filter:
    /// over all frames (`average`), or of the worst frame (`min`).
    public static func psnr(_ distorted: String, against reference: String, statistic: String = "average") throws -> Double {
        let log = try ffmpeg(["-i", distorted, "-i", reference, "-lavfi", "psnr", "-f", "null", "-", "-v", "info"])
        guard let range = log.range(of: " \(statistic):"),
              let value = Double(log[range.upperBound...].prefix { !$0.isWhitespace }) else {
            throw FixtureError(message: "no PSNR in ffmpeg's output: \(log.suffix(300))")
        }
        return value
    }

    /// A tool that failed, with what it said.
    public struct FixtureError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }
}
