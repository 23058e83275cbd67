import Foundation
import Glibc
import JobEngine
import PhotoJobs

extension SelfTestJob.Result {
    /// Writes a result to a new file at `url` a few kilobytes at a time, in the bytes ``StableJSON``
    /// gives for the same result (pretty, keys sorted), without holding it: a job of 100,000 units
    /// built the whole result, and `JSONEncoder`'s tree of it, in memory (about 20 MiB at its peak).
    /// - Parameters:
    ///   - committed: the committed units, in order; a sequence that throws stops the writing.
    ///   - executions: how many times each unit started, by unit number (0: never).
    /// - Throws: what `committed` throws, or ``FileSystemError``.
    static func write(committed: some Sequence<Int>, executions: [Int], to url: URL) throws {
        let file = try ResultFile(url)
        file.append("{\n  \"committed\" : [")
        var first = true
        for unit in committed {
            file.append((first ? "\n    " : ",\n    ") + String(unit))
            first = false
            try file.flush(over: ResultFile.bufferSize)
        }
        file.append((first ? "\n\n  ]" : "\n  ]") + ",\n  \"executions\" : {")
        first = true
        // Keys sorted as text ("0", "1", "10", "100", …, "11", …): each unit, then those it begins.
        func visit(_ unit: Int) throws {
            if executions[unit] > 0 {
                file.append((first ? "\n    \"" : ",\n    \"") + "\(unit)\" : \(executions[unit])")
                first = false
                try file.flush(over: ResultFile.bufferSize)
            }
            guard unit > 0, unit * 10 < executions.count else { return }
            for next in unit * 10..<min(unit * 10 + 10, executions.count) { try visit(next) }
        }
        for unit in 0..<min(10, executions.count) { try visit(unit) }
        file.append(first ? "\n\n  }\n}" : "\n  }\n}")
        try file.flush(over: 0)
    }
}

/// A new file written through a buffer; closed when it goes.
private final class ResultFile {
    /// How many bytes are gathered before they are written.
    static let bufferSize = 1 << 16

    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    init(_ url: URL) throws {
        fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError("open", path: url.path) }
        path = url.path
        buffer.reserveCapacity(Self.bufferSize + 64)
    }

    deinit { close(fd) }

    func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Writes what is gathered once it is more than `limit` bytes.
    func flush(over limit: Int) throws {
        guard buffer.count > limit else { return }
        try buffer.withUnsafeBytes { try DurableFiles.write($0, to: fd, path: path) }
        buffer.removeAll(keepingCapacity: true)
    }
}
