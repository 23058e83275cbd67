import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

/// An embedder's test of its kind: a scheduler over EngineTestKit's in-memory store, no database.
@Suite struct WordCountJobTests {
    @Test func aPausedCountResumesToTheSameReport() async throws {
        let folder = TemporaryDirectory()
        let files = try ["one two", "three", "four five six"].enumerated().map { index, text in
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("\(index).txt")))
            return folder.path("\(index).txt")
        }
        let scheduler = try JobScheduler(store: InMemoryJobStore(), lockDirectory: folder.url.appendingPathComponent("locks"),
                                         maxConcurrentJobs: 1)
        let permitted = try TaskIdentifier("com.example.wordcounter.count.*")
        try scheduler.register(WordCountJob(), permitted: permitted)
        let spec = WordCountJob.Spec(files: files, report: folder.path("report.txt"))
        guard case .created(let handle) = try scheduler.submit(
            try TaskRequest(identifier: permitted.unique(), title: "Counting words", subtitle: "starting"), spec: spec) else {
            Issue.record("expected a new job")
            return
        }
        // Pause after the first file, as the program's own "Pause" button would.
        handle.task.observe { event in
            if case .progress(let snapshot) = event, snapshot.unitsDone == 1 { handle.task.expire() }
        }
        #expect(await scheduler.run(handle) == .paused)
        #expect(!FileManager.default.fileExists(atPath: folder.path("report.txt")))

        #expect(await scheduler.run(try scheduler.resume(handle.id)) == .completed)
        #expect(try String(contentsOfFile: folder.path("report.txt"), encoding: .utf8) == "6 words\n")
    }
}
