import Foundation
import Glibc

/// Where the program's words go: standard output for results and events, standard error for
/// errors and, with `--json`, for words meant for people. Each call is one `write`, so lines
/// from different threads never interleave.
struct Console: Sendable {
    /// Whether standard output is a terminal (progress is then redrawn in place).
    let isTerminal: Bool

    init() {
        isTerminal = isatty(STDOUT_FILENO) == 1
    }

    /// Writes `text` and a newline to standard output.
    func out(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` and a newline to standard error.
    func err(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    /// Writes `text` to standard output as it is (for redrawing a line).
    func raw(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes one JSON object as one line on standard output, keys sorted.
    func json(_ object: [String: Any]) {
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
