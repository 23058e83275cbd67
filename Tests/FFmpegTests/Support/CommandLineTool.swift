import Foundation

/// Runs the `ffmpeg` and `ffprobe` command-line tools, which the tests use to make fixtures and
/// as a reference; never the code under test.
enum CommandLineTool {
    struct Failure: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var standardError: String
        var description: String { "\(arguments.joined(separator: " ")) exited \(status): \(standardError)" }
    }

    /// Runs `/usr/bin/<tool>` with `arguments`.
    /// - Returns: standard output and standard error.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (output: Data, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Tools run with `-v error`, so standard error stays far below a pipe's buffer and can
        // be read after standard output has ended.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(arguments: [tool] + arguments, status: process.terminationStatus, standardError: errorText)
        }
        return (outputData, errorText)
    }

    /// `ffmpeg -v error -y` with `arguments`.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> (output: Data, error: String) {
        try run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
    }
}
