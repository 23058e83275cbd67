import Foundation
@testable import MediaJobCLI
import Testing

/// Replays Tests/Corpus/fuzz/arguments/ (arguments separated by NUL bytes) — the seeds of
/// `Scripts/fuzz` and any input that once crashed the parser — through
/// `ParsedArguments.exercise`, as the fuzzer does: values or usage errors, never a crash.
@Suite struct ArgumentsFuzzCorpusTests {
    static let inputs: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/fuzz/arguments")
        return try! FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }()

    @Test(arguments: inputs)
    func eachInputParsesOrGivesUsageErrorsWithAMessage(_ input: URL) throws {
        let arguments = try Data(contentsOf: input).split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let messages = ParsedArguments.exercise(arguments)
        #expect(messages.allSatisfy { !$0.isEmpty })
    }

    @Test func aSeedWithEveryKindOfOptionParsesToItsValues() throws {
        let messages = ParsedArguments.exercise(["--output", "out", "--json", "--max-pixels=5", "--strategy", "fail", "project"])
        #expect(messages == ["unexpected argument 'project'"], "only none() objects to the positional: \(messages)")
        let wrong = ParsedArguments.exercise(["--max-pixels", "0", "--strategy", "sometimes", "a", "b"])
        #expect(wrong.count == 4, "\(wrong)")
        #expect(wrong.contains { $0.contains("--max-pixels expects a whole number") })
        #expect(wrong.contains { $0.contains("--strategy must be one of queue, fail") })
    }
}
