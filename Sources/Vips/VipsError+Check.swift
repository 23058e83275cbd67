import CVips
import CVipsShim
import Foundation
import Glibc

extension VipsError {
    /// The one checking funnel for libvips calls: does nothing when `status` is 0; otherwise
    /// takes (and clears) libvips' error buffer and throws the error `makeError` builds from it.
    static func check(_ status: Int32, _ makeError: (_ libraryMessage: String) -> VipsError) throws {
        guard status != 0 else { return }
        throw makeError(takeLibraryMessage())
    }

    /// libvips' error buffer, trimmed, and cleared in the same locked step.
    static func takeLibraryMessage() -> String {
        guard let buffer = shim_error_take() else { return "" }
        defer { g_free(buffer) }
        return String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// libvips could not start.
    static func startFailed(_ libraryMessage: String) -> VipsError {
        VipsError(.other, path: nil, reason: "libvips could not start", libraryMessage: libraryMessage)
    }

    /// An error from computing pixels (a save, an encode, a write to memory), told apart by
    /// libvips' text: a requested stop, a failed write (full disk or otherwise), or else a decode
    /// failure of the source file.
    static func evaluation(
        libraryMessage: String, stopRequested: Bool, source: String?, destination: String?
    ) -> VipsError {
        if stopRequested {
            return VipsError(.stopped, path: destination ?? source, libraryMessage: libraryMessage)
        }
        for code in [ENOSPC, EDQUOT] where libraryMessage.contains(String(cString: strerror(code))) {
            return VipsError(.writeFailed(noSpace: true), path: destination, reason: String(cString: strerror(code)),
                             libraryMessage: libraryMessage)
        }
        let writeMarkers = ["write error", "write failed", "unable to open for write", "Output file write error"]
        if writeMarkers.contains(where: libraryMessage.contains) {
            return VipsError(.writeFailed(noSpace: false), path: destination, reason: unixReason(libraryMessage),
                             libraryMessage: libraryMessage)
        }
        if let source {
            return VipsError(.corrupt, path: source, reason: firstLine(libraryMessage), libraryMessage: libraryMessage)
        }
        return VipsError(.other, path: destination, libraryMessage: libraryMessage)
    }

    /// The text after libvips' "unix error: ", the operating system's reason, if any.
    private static func unixReason(_ libraryMessage: String) -> String? {
        libraryMessage.split(separator: "\n")
            .first { $0.hasPrefix("unix error: ") && !$0.contains("Unknown error") }
            .map { String($0.dropFirst("unix error: ".count)) }
    }

    /// The first line of libvips' text without its "domain: " prefix, as a short reason.
    private static func firstLine(_ libraryMessage: String) -> String? {
        guard let line = libraryMessage.split(separator: "\n").first else { return nil }
        if let colon = line.firstIndex(of: ":") {
            return String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return String(line)
    }
}
