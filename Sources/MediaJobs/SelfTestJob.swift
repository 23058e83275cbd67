import Foundation
import Glibc
import JobEngine
import TaskContract

/// A synthetic chunked job that exercises the engine on this machine without media.
///
/// Each unit spends its time in small slices (so a stop lands within one slice), logs that it
/// ran, and commits a small output. Even units count as ``Stage/render``, odd ones as
/// ``Stage/encode`` and take twice as long, so the bar's cost weighting shows. Finalisation
/// writes a JSON result from which a test can tell that every unit was committed exactly once
/// and how often each one ran.
public struct SelfTestJob: JobKind {
    /// The self-test's settings.
    public struct Spec: Codable, Sendable, Equatable {
        /// How many units to run.
        public var units: Int
        /// Milliseconds an even unit takes (odd units take twice as long).
        public var unitMilliseconds: Int
        /// A unit that fails on purpose, if any.
        public var failAt: Int?
        /// Where the result file goes.
        public var output: String
        /// Whether an existing result file may be replaced.
        public var overwrite: Bool

        public init(units: Int, unitMilliseconds: Int, failAt: Int? = nil, output: String, overwrite: Bool) {
            self.units = units
            self.unitMilliseconds = unitMilliseconds
            self.failAt = failAt
            self.output = output
            self.overwrite = overwrite
        }

        /// The job's title: states the result.
        public var title: String { "Self-test: \(Plural.of(units, "unit"))" }
    }

    /// The result file's contents.
    public struct Result: Codable, Equatable, Sendable {
        /// Units whose output was found committed, in order.
        public var committed: [Int]
        /// How many times each unit started, by unit number.
        public var executions: [String: Int]
    }

    /// The log of unit starts, kept in the workspace across runs: in the workspace's own folder,
    /// never in a lease's, so that it counts the starts of every worker.
    static let executionLog = "executions.log"

    /// Where the log of unit starts lies in `workspace`.
    static func executionLog(in workspace: Workspace) -> URL {
        workspace.directory.appendingPathComponent(executionLog)
    }

    private let environment: MediaEnvironment

    /// A self-test kind whose units wait by `environment`'s clock.
    public init(environment: MediaEnvironment = MediaEnvironment()) {
        self.environment = environment
    }

    public var name: String { "selftest" }

    public var showsCountsInSubtitle: Bool { true }

    public var defaultCosts: [Stage: Double] { [.render: 0.05, .encode: 0.1, .package: 0.01] }

    /// One unit after another, so that a stop, a kill or a fault at a step lands at a known unit.
    public var maxChunksAtOnce: Int? { 1 }

    public func plan(_ spec: Spec) throws -> JobPlan {
        guard spec.units >= 1, spec.units <= 1_000_000 else { throw SelfTestError.badSetting("units must be between 1 and 1000000") }
        guard spec.unitMilliseconds >= 0 else { throw SelfTestError.badSetting("unit time must not be negative") }
        let chunks = (0..<spec.units).map { PlannedChunk(key: Self.outputName($0), stage: $0 % 2 == 0 ? .render : .encode) }
        return JobPlan(destination: URL(fileURLWithPath: spec.output), chunks: chunks, overwrite: spec.overwrite)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        let unit = Self.unit(of: chunk)
        try Self.appendLine("\(unit)\n", to: Self.executionLog(in: context.workspace))
        // In slices of at most 5 ms, so that a stop lands within one.
        var left = spec.unitMilliseconds * (unit % 2 == 0 ? 1 : 2)
        while left > 0 {
            try context.checkStop()
            let slice = min(left, 5)
            try await environment.clock.sleep(for: .milliseconds(slice), tolerance: nil)
            left -= slice
        }
        if unit == spec.failAt { throw SelfTestError.failedOnPurpose(unit) }
        try context.workspace.commit(chunk.key, data: Data(Self.content(of: unit, total: spec.units).utf8))
        return "cpu"
    }

    public func finalize(_ spec: Spec, chunks: [PlannedChunk], in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "package result")
        var committed: [Int] = []
        for chunk in chunks {
            let unit = Self.unit(of: chunk)
            let text = try? String(contentsOf: context.workspace.url(for: chunk.key), encoding: .utf8)
            guard text == Self.content(of: unit, total: spec.units) else { throw SelfTestError.missingOutput(unit) }
            committed.append(unit)
        }
        let log = (try? String(contentsOf: Self.executionLog(in: context.workspace), encoding: .utf8)) ?? ""
        let executions = log.split(separator: "\n").reduce(into: [String: Int]()) { $0[String($1), default: 0] += 1 }
        let name = "result.json"
        try context.workspace.commit(name, data: try StableJSON.encode(Result(committed: committed, executions: executions)))
        return context.workspace.url(for: name)
    }

    static func outputName(_ unit: Int) -> String { String(format: "unit-%07d.txt", unit) }

    static func unit(of chunk: PlannedChunk) -> Int {
        Int(chunk.key.dropFirst("unit-".count).prefix(7)) ?? -1
    }

    static func content(of unit: Int, total: Int) -> String { "unit \(unit) of \(total)\n" }

    private static func appendLine(_ line: String, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError("open", path: url.path) }
        defer { close(fd) }
        let written = line.withCString { write(fd, $0, strlen($0)) }
        guard written == line.utf8.count else { throw FileSystemError("write", path: url.path) }
    }
}

/// Why a self-test did not pass.
public enum SelfTestError: CategorizedError, Equatable {
    case badSetting(String)
    case failedOnPurpose(Int)
    case missingOutput(Int)

    public var category: FailureCategory {
        switch self {
        case .badSetting: .invalidInput
        case .failedOnPurpose, .missingOutput: .internal
        }
    }

    public var message: String {
        switch self {
        case .badSetting(let text): "invalid self-test setting: \(text)"
        case .failedOnPurpose(let unit): "unit \(unit) failed on purpose (--fail-at \(unit))"
        case .missingOutput(let unit): "the output of unit \(unit) is missing or wrong in the workspace"
        }
    }
}
