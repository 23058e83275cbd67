import Foundation
import JobEngine
import SQLiteJobStore
import TaskContract

/// Counts the words of text files, one file per chunk.
struct WordCountJob: JobKind {
    struct Spec: Codable, Sendable {
        var files: [String]
        var report: String
    }

    var name: String { "wordcount" }

    func plan(_ spec: Spec) throws -> JobPlan {
        JobPlan(destination: URL(fileURLWithPath: spec.report),
                chunks: spec.files.indices.map { PlannedChunk(key: "count-\($0)", stage: .render) })
    }

    /// One chunk: count one file and commit the count to the workspace (temp, fsync, rename).
    func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        let file = spec.files[Int(chunk.key.dropFirst("count-".count))!]
        let words = try String(contentsOfFile: file, encoding: .utf8).split(whereSeparator: \.isWhitespace).count
        try context.workspace.commit(chunk.key, data: Data("\(words)".utf8))
        return "cpu"
    }

    /// Assemble the result in the workspace; the engine renames it onto the destination.
    func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        let counts = try chunks.all().map { try String(contentsOf: context.workspace.url(for: $0.key), encoding: .utf8) }
        try context.workspace.commit("report.txt", data: Data("\(counts.compactMap { Int($0) }.reduce(0, +)) words\n".utf8))
        return context.workspace.url(for: "report.txt")
    }
}

/// Runs a word count as an embedding program would: durable, resumable, with progress, under
/// its own names (identifiers `com.example.wordcounter.count.<uuid>`, workspaces `.<report>.wordcounter-<job>`).
func countWords(in files: [String], report: String, stateFolder: URL) async throws -> TaskOutcome {
    let store = try SQLiteJobStore(path: stateFolder.appendingPathComponent("jobs.sqlite").path)
    let scheduler = try JobScheduler(store: store, lockDirectory: stateFolder.appendingPathComponent("locks"),
                                     maxConcurrentJobs: 1, workspacePrefix: "wordcounter")
    let permitted = try TaskIdentifier("com.example.wordcounter.count.*")
    try scheduler.register(WordCountJob(), permitted: permitted)
    let request = try TaskRequest(identifier: permitted.unique(), title: "Counting words", subtitle: "starting")
    let handle: JobHandle
    switch try scheduler.submit(request, spec: WordCountJob.Spec(files: files, report: report)) {
    case .created(let new):
        handle = new
    case .existing(let job):
        // The same work is already a job: continue it rather than start a second.
        handle = try scheduler.resume(job.id)
    }
    handle.task.observe { event in
        if case .progress(let snapshot) = event { print("\(Int(snapshot.fraction * 100))% committed") }
    }
    return await scheduler.run(handle)
}
