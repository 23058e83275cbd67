import EngineTestKit
import Foundation
@testable import MediaJobCLI
@testable import MediaJobs
import Testing

/// Tests/Corpus/fuzz/<target>/: the seeds of `Scripts/fuzz` and every input that once crashed a
/// fuzz target, replayed through what the target calls.
enum FuzzCorpus {
    /// The inputs of `target` (`manifest` or `arguments`), sorted by name.
    static func inputs(_ target: String) -> [URL] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/fuzz/\(target)")
        return try! FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// The manifest reader, as `Fuzz/ManifestFuzzer` drives it: each input gives a manifest or a
/// ``ManifestError``, never a crash or another error.
@Suite struct ManifestFuzzCorpusTests {
    @Test func theCorpusHoldsSeedsAndCrashInputs() {
        let inputs = FuzzCorpus.inputs("manifest")
        #expect(inputs.count >= 5)
        #expect(inputs.contains { $0.lastPathComponent.hasPrefix("crash-") })
    }

    @Test(arguments: FuzzCorpus.inputs("manifest"))
    func eachInputIsReadOrRefusedWithAManifestError(_ input: URL) throws {
        let folder = TemporaryDirectory()
        do {
            _ = try ProjectLoader.decode(Data(contentsOf: input), file: "project.json", folder: folder.url)
        } catch let error as ManifestError {
            #expect(!error.problem.isEmpty)
        }
    }
}

/// The argument parser, as `Fuzz/ArgumentsFuzzer` drives it through `ParsedArguments.exercise`
/// (inputs are arguments separated by NUL bytes): values or usage errors, never a crash.
@Suite struct ArgumentsFuzzCorpusTests {
    @Test(arguments: FuzzCorpus.inputs("arguments"))
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
