import EngineTestKit
import Foundation
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

    @Test func theReadmeShowsExactlyThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let example = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("WordCountExample.swift"),
                                 encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"), "README.md embeds Tests/EmbeddingExampleTests/WordCountExample.swift verbatim")
    }
}
