import Foundation
import MediaTestKit

/// Runs the `ffmpeg` and `ffprobe` command-line tools, which the tests use to make fixtures and
/// as a reference; never the code under test.
enum CommandLineTool {
    /// Runs `/usr/bin/<tool>` with `arguments` (for at most ten minutes).
    /// - Returns: standard output and standard error.
    /// - Throws: ``MediaFixtures/FixtureError`` with what the tool said when it fails or hangs.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (output: Data, error: String) {
        let (output, error) = try MediaFixtures.runCapturing("/usr/bin/\(tool)", arguments)
        return (output, String(decoding: error, as: UTF8.self))
    }

    /// `ffmpeg -v error -y` with `arguments`.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> (output: Data, error: String) {
        try run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
    }
}
