import EngineTestKit
import Foundation

/// Tests/Corpus/hostile/: small files that are truncated, corrupt, pixel bombs, lying about their
/// type, untrusted formats, and so on, with the table (`expected.json`) of what each must produce.
enum HostileCorpus {
    /// One row of the table.
    struct Case: Decodable, Sendable, CustomStringConvertible {
        /// The file's name, in the corpus folder or made at run time.
        var name: String
        /// What the file holds.
        var holds: String
        /// `done` or `refused`.
        var result: String
        /// Words a refusal's error must contain.
        var error: String?
        /// How a test makes it, for a case git cannot hold: `folder`, `fifo`, `missing`,
        /// `unreadable` or `symlink`.
        var madeAtRunTime: String?

        var isRefused: Bool { result == "refused" }
        var description: String { name }

        enum CodingKeys: String, CodingKey {
            case name, holds, result, error, madeAtRunTime = "made_at_run_time"
        }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/hostile")

    /// Every row of `expected.json`.
    static let cases: [Case] = {
        struct Table: Decodable { var files: [Case] }
        let data = try! Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode(Table.self, from: data).files
    }()

    /// The rows of the committed files.
    static var committed: [Case] { cases.filter { $0.madeAtRunTime == nil } }

    /// The row of `name`.
    static func named(_ name: String) -> Case {
        cases.first { $0.name == name }!
    }

    /// The committed file `name`.
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// The part of `text` that reports each case: from its `label` up to the next case's label.
    /// - Parameter label: where a case's report starts in `text`, for example `assets[3] (x.jpg): `.
    static func reports(in text: String, for cases: [Case], label: (Case) -> String) -> [String: Substring] {
        let starts = cases.compactMap { item in text.range(of: label(item)).map { (item.name, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }
        var reports: [String: Substring] = [:]
        for (index, (name, start)) in starts.enumerated() {
            reports[name] = text[start..<(index + 1 < starts.count ? starts[index + 1].1 : text.endIndex)]
        }
        return reports
    }
}

/// A project holding every committed corpus file and the run-time cases that live inside a
/// project (a folder, a FIFO, a missing file), each asset with an output named after its file.
struct HostileProject {
    let fixture = CLIFixture()
    /// The cases, in the manifest's order.
    let cases = HostileCorpus.cases.filter { [nil, "folder", "fifo", "missing"].contains($0.madeAtRunTime) }
    /// The cases the manifest lists now, in its order: all of them until ``leaveOut(_:)``.
    private(set) var listed: [HostileCorpus.Case] = []
    var folder: URL { fixture.folder.url.appendingPathComponent("project") }
    var destination: String { fixture.folder.path("hostile.zip") }

    init() throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in cases {
            let file = folder.appendingPathComponent(item.name)
            switch item.madeAtRunTime {
            case nil: try fm.copyItem(at: HostileCorpus.url(item.name), to: file)
            case "folder": try fm.createDirectory(at: file, withIntermediateDirectories: false)
            case "fifo": guard mkfifo(file.path, 0o644) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            default: break // missing
            }
        }
        try list(cases)
    }

    /// Rewrites the manifest without the cases `names` names.
    mutating func leaveOut(_ names: Set<String>) throws {
        try list(listed.filter { !names.contains($0.name) })
    }

    private mutating func list(_ cases: [HostileCorpus.Case]) throws {
        let assets = cases.map { #"{"path": "\#($0.name)", "output": "\#(Self.output(of: $0))"}"# }
        let manifest = #"{"version": 1, "name": "hostile", "assets": [\#(assets.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("project.json"))
        listed = cases
    }

    /// The asset's output name: its file name with `-` for `.` (`truncated.jpg` → `truncated-jpg`).
    static func output(of item: HostileCorpus.Case) -> String {
        item.name.replacingOccurrences(of: ".", with: "-")
    }

    /// How the export's error introduces the asset: `assets[3] (truncated.jpg): `.
    func label(_ item: HostileCorpus.Case) -> String {
        "assets[\(listed.firstIndex { $0.name == item.name }!)] (\(item.name)): "
    }
}
