import Foundation
import JobEngine
import TaskContract

/// Hashes every file of a folder, one chunk per file, into a report of `<sha256>  <name>` lines
/// (what `sha256sum` prints), sorted by name.
public struct HashJob: JobKind {
    /// The job's settings.
    public struct Spec: Codable, Sendable, Equatable {
        public var folder: String
        public var report: String

        public init(folder: String, report: String) {
            self.folder = folder
            self.report = report
        }
    }

    /// The identifiers of this program's hash jobs: its own reverse-DNS name.
    public static let permitted = "com.example.hashfolder.hash.*"

    /// This program's stage: hashing one file.
    public static let hashing = Stage(rawValue: "hash")

    public init() {}

    public var name: String { "hash" }

    public var defaultCosts: [Stage: Double] { [Self.hashing: 1e-8] }

    public func plan(_ spec: Spec) throws -> JobPlan {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: spec.folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw HashJobError.unreadableFolder(spec.folder)
        }
        let chunks = try names.map { name in
            let size = try FileManager.default.attributesOfItem(atPath: spec.folder + "/" + name)[.size] as? Int ?? 0
            return PlannedChunk(key: name, stage: Self.hashing, work: Double(max(size, 1)))
        }
        return JobPlan(destination: URL(fileURLWithPath: spec.report), chunks: chunks)
    }

    /// One chunk: hash one file and commit its line to the workspace.
    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: spec.folder).appendingPathComponent(chunk.key))
        try context.workspace.commit(chunk.key + ".line", data: Data("\(SHA256.hex(of: bytes))  \(chunk.key)\n".utf8))
        return "cpu"
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        var report = Data()
        try chunks.forEach { report += try Data(contentsOf: context.workspace.url(for: $0.key + ".line")) }
        try context.workspace.commit("report.txt", data: report)
        return context.workspace.url(for: "report.txt")
    }
}

/// Why a hash job was refused.
public enum HashJobError: CategorizedError {
    case unreadableFolder(String)

    public var category: FailureCategory { .invalidInput }
    public var message: String {
        switch self {
        case .unreadableFolder(let path): "cannot list the folder \(path)"
        }
    }
}
