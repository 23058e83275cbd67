import EngineTestKit
import Foundation
import Glibc
import Testing

@Suite struct WordCountExampleTests {
    @Test func theReadmesEmbeddingExampleRunsToACompletedReport() async throws {
        let folder = TemporaryDirectory()
        let files = try ["one two three", "four five", "six"].enumerated().map { index, text in
            let path = folder.path("\(index).txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let outcome = try await countWords(in: files, report: folder.path("report.txt"),
                                           stateFolder: folder.url.appendingPathComponent("state"))
        #expect(outcome == .completed)
        #expect(try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8) == "6 words\n")
    }

    @Test func aProgramThatEmbedsTheEngineIgnoresTheCrashTestVariable() async {
        // In a child process, whose environment is its own: the `mediajob` binary's crash tests
        // kill at the first checkpoint with this, and an embedder must run to the end regardless.
        await #expect(processExitsWith: .success) {
            setenv("MEDIAJOB_FAULT", "checkpoint:1", 1)
            let folder = TemporaryDirectory()
            let file = folder.path("words.txt")
            try Data("one two".utf8).write(to: URL(fileURLWithPath: file))
            let outcome = try await countWords(in: [file], report: folder.path("report.txt"),
                                               stateFolder: folder.url.appendingPathComponent("state"))
            guard outcome == .completed,
                  try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8) == "2 words\n" else { exit(1) }
        }
    }

    @Test func theReadmeShowsExactlyTheseExamples() throws {
        let here = URL(fileURLWithPath: #filePath)
        let example = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("WordCountExample.swift"),
                                 encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"), "README.md embeds Tests/EmbeddingExampleTests/WordCountExample.swift verbatim")
        let test = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("WordCountJobTests.swift"),
                              encoding: .utf8)
        #expect(readme.contains("```swift\n" + test + "```"), "README.md embeds Tests/EmbeddingExampleTests/WordCountJobTests.swift verbatim")
    }
}
