import Foundation
import JobEngine
import Synchronization
import TaskContract

/// A job kind for engine tests: each chunk calls the test's hook, then commits `"<index>\n"`;
/// finalisation concatenates the chunks' outputs into the result, then a line
/// `skipped: <item>: <reason>` for each item the chunks skipped. It records how often each chunk
/// ran and committed.
public struct ScriptedJob: JobKind {
    /// The job's settings.
    public struct Spec: Codable, Sendable, Equatable {
        public var units: Int
        public var destination: String
        public var overwrite: Bool

        public init(units: Int, destination: String, overwrite: Bool = false) {
            self.units = units
            self.destination = destination
            self.overwrite = overwrite
        }
    }

    /// What each chunk does before committing: may wait, expire the task, or throw.
    public typealias Hook = @Sendable (_ index: Int, _ context: JobContext) async throws -> Void

    public let name: String
    /// Whether the engine writes `<stage> <done>/<total>` into the subtitle at each checkpoint.
    public let showsCountsInSubtitle: Bool
    /// Counts of chunk starts and commits.
    public let log = RunLog()
    private let hook: Hook

    public init(name: String = "scripted", showsCountsInSubtitle: Bool = false, hook: @escaping Hook = { _, _ in }) {
        self.name = name
        self.showsCountsInSubtitle = showsCountsInSubtitle
        self.hook = hook
    }

    public var defaultCosts: [Stage: Double] { [.render: 0.001, .encode: 0.002, .package: 0.001] }

    public func plan(_ spec: Spec) throws -> JobPlan {
        guard spec.units > 0 else { throw ScriptedJobError.noUnits }
        return JobPlan(destination: URL(fileURLWithPath: spec.destination),
                       chunks: (0..<spec.units).map { PlannedChunk(key: "chunk-\($0)", stage: $0 % 2 == 0 ? .render : .encode) },
                       overwrite: spec.overwrite)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        let index = Int(chunk.key.dropFirst("chunk-".count))!
        log.started(index)
        try await hook(index, context)
        try context.checkStop()
        try context.workspace.commit(chunk.key, data: Data("\(index)\n".utf8))
        log.committed(index)
        return "cpu"
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        var text = ""
        try chunks.forEach { chunk in
            text += try String(contentsOf: context.workspace.url(for: chunk.key), encoding: .utf8)
        }
        text += context.skippedItems.map { "skipped: \($0.message)\n" }.joined()
        try context.workspace.commit("result.txt", data: Data(text.utf8))
        return context.workspace.url(for: "result.txt")
    }

    /// The result an uninterrupted run of `units` chunks publishes.
    public static func expectedResult(units: Int) -> String {
        (0..<units).map { "\($0)\n" }.joined()
    }
}

/// Why a scripted job was refused.
public enum ScriptedJobError: CategorizedError {
    case noUnits

    public var category: FailureCategory { .invalidInput }
    public var message: String { "a scripted job needs at least one unit" }
}

/// How often each chunk of a ``ScriptedJob`` started and committed.
public final class RunLog: Sendable {
    private let counts = Mutex<(started: [Int: Int], committed: [Int: Int])>(([:], [:]))

    public init() {}

    func started(_ index: Int) { counts.withLock { $0.started[index, default: 0] += 1 } }
    func committed(_ index: Int) { counts.withLock { $0.committed[index, default: 0] += 1 } }

    /// Starts by chunk index.
    public var starts: [Int: Int] { counts.withLock { $0.started } }
    /// Commits by chunk index.
    public var commits: [Int: Int] { counts.withLock { $0.committed } }
}
