import Foundation
import Glibc

/// Where the program's words go: standard output for data (results, tables, JSON events),
/// standard error for words meant for people (announcements, progress, advice, errors), in every
/// mode. Each call is one `write`, so lines from different threads never interleave.
package struct Console: Sendable {
    /// Whether standard error is a terminal (progress is then redrawn in place there).
    package let isTerminal: Bool

    package init() {
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Writes `text` and a newline to standard output.
    package func out(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` and a newline to standard error.
    package func err(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    /// Writes `Error: ` and `text` as one sentence (a full stop added unless it ends in one, or in
    /// `?` or `!`), then each of `next` on lines of their own, to standard error.
    package func error(_ text: String, _ next: String...) {
        err((["Error: " + Self.sentence(text)] + next).joined(separator: "\n"))
    }

    /// `text` with its first line ending in a full stop, `?` or `!` (a full stop is added only
    /// where none is); lines after it (advice naming a command) are left as they are.
    package static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let first = trimmed.prefix { $0 != "\n" }, rest = trimmed.dropFirst(first.count)
        return (first.last.map { ".?!".contains($0) } == true ? String(first) : first + ".") + rest
    }

    /// Writes `text` to standard error as it is (for redrawing a progress line).
    package func raw(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Writes one JSON object as one line on standard output, keys sorted.
    package func json(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        out(String(decoding: data, as: UTF8.self))
    }

    private func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
