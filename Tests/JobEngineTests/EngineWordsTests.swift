import Foundation
import Testing

/// The engine speaks in reasons; only the program that embeds it names its commands and options.
@Suite struct EngineWordsTests {
    /// Every string literal of `Sources/JobEngine`, with where it is.
    private static func literals() throws -> [(place: String, text: String)] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/JobEngine").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "found the engine's sources in \(sources.path)")
        var found: [(String, String)] = []
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                found += literals(in: String(line)).map { ("\(file):\(number + 1)", $0) }
            }
        }
        return found
    }

    /// The double-quoted literals on one line of code.
    private static func literals(in line: String) -> [String] {
        line.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Whether a literal names the program (as it is typed) or a command-line option. Environment
    /// variables (`MEDIAJOB_…`) are a separate matter: which ones the engine reads is issue 16's.
    private static func namesCommandLine(_ text: String) -> Bool {
        text.contains("mediajob") || text.range(of: #"(^|[\s(`'])--[a-z]"#, options: .regularExpression) != nil
    }

    @Test func theDetectorCatchesProgramAndOptionNames() {
        #expect(Self.namesCommandLine("list jobs with: mediajob jobs"))
        #expect(Self.namesCommandLine("try again or use --strategy queue"))
        #expect(!Self.namesCommandLine("job 1a2b is paused; only paused, interrupted or failed jobs resume"))
        #expect(!Self.namesCommandLine("a-b--c"))
        #expect(Self.literals(in: #"let a = "one \(x) two" + "--overwrite""#) == [#"one \(x) two"#, "--overwrite"])
    }

    @Test func noStringInTheEngineNamesTheProgramOrAnOption() throws {
        let offending = try Self.literals().filter { Self.namesCommandLine($0.text) }
        #expect(offending.isEmpty, "\(offending.map { "\($0.place): \($0.text)" }.joined(separator: "\n"))")
    }
}
