import Foundation
import Glibc
import JobEngine
import PhotoJobs
import TaskContract

/// A synthetic chunked job that exercises the engine on this machine without media.
///
/// Each unit spends its time in small slices (so a stop lands within one slice), logs that it
/// ran, and commits a small output. Even units count as ``Stage/render``, odd ones as
/// ``Stage/encode`` and take twice as long, so the bar's cost weighting shows. Finalisation
/// writes a JSON result from which a test can tell that every unit was committed exactly once
/// and how often each one ran.
///
/// A chunk is one unit, unless ``Spec/chunkMilliseconds`` asks for chunks of several: then
/// consecutive units share a chunk until they take that long, and commit one output together,
/// so that the chunk's syncs (its file, its folder, the store's log) are paid once for them all,
/// as a job kind batches short items.
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
        /// Consecutive units share a chunk until they take at least this many milliseconds (at
        /// most ``SelfTestJob/maxUnitsPerChunk`` of them); `nil` or 0: one unit per chunk.
        public var chunkMilliseconds: Int?

        public init(units: Int, unitMilliseconds: Int, failAt: Int? = nil, output: String, overwrite: Bool,
                    chunkMilliseconds: Int? = nil) {
            self.units = units
            self.unitMilliseconds = unitMilliseconds
            self.failAt = failAt
            self.output = output
            self.overwrite = overwrite
            self.chunkMilliseconds = chunkMilliseconds
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

    /// The most units one chunk holds, however short they are: what a kill may make run again.
    public static let maxUnitsPerChunk = 1000

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
        guard (spec.chunkMilliseconds ?? 0) >= 0 else { throw SelfTestError.badSetting("chunk time must not be negative") }
        let chunks = Self.unitRanges(spec).map { units in
            // A chunk of several units counts as encode work, each unit weighing its time.
            units.count == 1
                ? PlannedChunk(key: Self.outputName(units.lowerBound), stage: units.lowerBound % 2 == 0 ? .render : .encode)
                : PlannedChunk(key: Self.outputName(units), stage: .encode,
                               work: Double(units.reduce(0) { $0 + Self.weight(of: $1) }) / 2)
        }
        return JobPlan(destination: URL(fileURLWithPath: spec.output), chunks: chunks, overwrite: spec.overwrite)
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        for unit in Self.units(of: chunk) {
            try Self.appendLine("\(unit)\n", to: Self.executionLog(in: context.workspace))
            // In slices of at most 5 ms, so that a stop lands within one.
            var left = spec.unitMilliseconds * Self.weight(of: unit)
            while left > 0 {
                try context.checkStop()
                let slice = min(left, 5)
                try await environment.clock.sleep(for: .milliseconds(slice), tolerance: nil)
                left -= slice
            }
            if unit == spec.failAt { throw SelfTestError.failedOnPurpose(unit) }
        }
        try context.workspace.commit(chunk.key, data: Data(Self.content(of: chunk, total: spec.units).utf8))
        return "cpu"
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "package result")
        // The units of each chunk: 16 bytes a chunk, where its plan took about 190.
        var committed: [Range<Int>] = []
        try chunks.forEach { chunk in
            let text = try? String(contentsOf: context.workspace.url(for: chunk.key), encoding: .utf8)
            guard text == Self.content(of: chunk, total: spec.units) else {
                throw SelfTestError.missingOutput(Self.units(of: chunk).lowerBound)
            }
            committed.append(Self.units(of: chunk))
        }
        let executions = Self.executions(in: context.workspace, units: spec.units)
        let name = "result.json"
        try context.workspace.commit(name) { temporary in
            try Result.write(committed: committed.joined(), executions: executions, to: temporary)
        }
        return context.workspace.url(for: name)
    }

    /// How many times each unit started, by unit number, from the log of unit starts (a line
    /// each); a last line left without its end by a crash counts no start.
    static func executions(in workspace: Workspace, units: Int) -> [Int] {
        var counts = Array(repeating: 0, count: units)
        let log = (try? Data(contentsOf: executionLog(in: workspace))) ?? Data()
        var unit = 0, digits = 0
        for byte in log {
            if byte == UInt8(ascii: "\n") {
                if (1...9).contains(digits), unit < units { counts[unit] += 1 }
                unit = 0
                digits = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                unit = unit &* 10 &+ Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
        }
        return counts
    }

    /// The units of each chunk, in order: one each, or with ``Spec/chunkMilliseconds``, as many
    /// consecutive ones as take that long (at most ``maxUnitsPerChunk``).
    static func unitRanges(_ spec: Spec) -> [Range<Int>] {
        let target = spec.chunkMilliseconds ?? 0
        var ranges: [Range<Int>] = []
        var start = 0, milliseconds = 0
        for unit in 0..<spec.units {
            milliseconds += spec.unitMilliseconds * weight(of: unit)
            if milliseconds >= target || unit + 1 - start == maxUnitsPerChunk {
                ranges.append(start..<(unit + 1))
                start = unit + 1
                milliseconds = 0
            }
        }
        if start < spec.units { ranges.append(start..<spec.units) }
        return ranges
    }

    /// How many even units' time `unit` takes: 1 for an even unit, 2 for an odd one.
    static func weight(of unit: Int) -> Int { unit % 2 == 0 ? 1 : 2 }

    /// The output of a one-unit chunk, `unit-0000007.txt`.
    static func outputName(_ unit: Int) -> String { String(format: "unit-%07d.txt", unit) }

    /// The output of a chunk of several units, `units-0000000-0000013.txt` (first and last unit).
    static func outputName(_ units: Range<Int>) -> String {
        String(format: "units-%07d-%07d.txt", units.lowerBound, units.upperBound - 1)
    }

    /// The units of `chunk`, read back from its output's name.
    static func units(of chunk: PlannedChunk) -> Range<Int> {
        let numbers = chunk.key.prefix { $0 != "." }.split(separator: "-").dropFirst().compactMap { Int($0) }
        guard let first = numbers.first, let last = numbers.last else { return -1..<0 }
        return first..<(last + 1)
    }

    /// What a chunk's output holds: one line per unit.
    static func content(of chunk: PlannedChunk, total: Int) -> String {
        units(of: chunk).map { "unit \($0) of \(total)\n" }.joined()
    }

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
