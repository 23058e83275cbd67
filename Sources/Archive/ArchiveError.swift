import Glibc
import TaskContract

/// A zip could not be written or read: what went wrong, where, and libarchive's own words.
///
/// Every failure in this module is an ``ArchiveError``. Its ``category`` follows the cause:
/// bad names and corrupt archives are `.invalidInput`, a full disk is `.noSpace`, other
/// system failures are `.io` (or `.resource` when memory or descriptors ran out).
public struct ArchiveError: CategorizedError, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// An entry name is not a safe relative path inside a zip.
        case invalidEntryName
        /// Two entries have the same name.
        case duplicateEntry
        /// The caller's stop check asked the write to stop; the partial zip was removed.
        ///
        /// This is not a failure: its category is `.internal` only because it has to have one.
        /// Callers turn it into their own stop signal (in a job, `JobStopped`), so the job ends
        /// paused, not failed.
        case stopped
        /// An entry's source file could not be opened or read.
        case sourceUnreadable
        /// An entry's source is not a regular file.
        case unsupportedSource
        /// An entry's source file changed size while it was being archived.
        case sourceChanged
        /// libarchive or the system failed while writing the zip.
        case writeFailed
        /// The zip could not be read: missing, truncated, corrupt or not a zip.
        case readFailed
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The file concerned: the zip, or for source failures the entry's source file.
    public var path: String
    /// The entry's name inside the zip, when one entry is concerned.
    public var entry: String?
    /// The cause in detail: libarchive's message, or why a name was refused.
    public var detail: String
    /// The `errno` at the failure site (`archive_errno` for libarchive failures), 0 when none.
    public var code: Int32

    /// Creates an error; the module's checks create them, tests may too.
    /// - Parameters:
    ///   - kind: what kind of failure this is.
    ///   - path: the zip, or the entry's source file.
    ///   - entry: the entry's name inside the zip, if one entry is concerned.
    ///   - detail: the cause in detail.
    ///   - code: the `errno` at the failure site, 0 when none.
    public init(_ kind: Kind, path: String, entry: String? = nil, detail: String, code: Int32 = 0) {
        self.kind = kind
        self.path = path
        self.entry = entry
        self.detail = detail
        self.code = code
    }

    /// The failure's category: `.invalidInput` for bad names, sources and archives, `.noSpace`
    /// for a full disk, `.resource` for exhausted memory or descriptors, `.io` otherwise.
    public var category: FailureCategory {
        if [ENOMEM, EMFILE, ENFILE].contains(code) { return .resource }
        switch kind {
        case .invalidEntryName, .duplicateEntry, .unsupportedSource:
            return .invalidInput
        case .stopped:
            return .internal
        case .sourceUnreadable, .sourceChanged:
            return .io
        case .writeFailed:
            return [ENOSPC, EDQUOT].contains(code) ? .noSpace : .io
        case .readFailed:
            return [EIO, ENOENT, EACCES, EPERM, EISDIR].contains(code) ? .io : .invalidInput
        }
    }

    /// What happened and what to do, naming the file and entry.
    public var message: String {
        let named = entry.map { "entry '\($0)'" } ?? "an entry"
        switch kind {
        case .invalidEntryName:
            return "\((entry ?? "").debugDescription) cannot name an entry in \(path.isEmpty ? "a zip" : path): \(detail); "
                + "use a relative path with '/' between folders"
        case .duplicateEntry:
            return "\(named) appears more than once in \(path); give every entry its own name"
        case .stopped:
            return "writing \(path) was stopped on request; the partial zip was removed"
        case .sourceUnreadable:
            return "cannot read \(path) for \(named): \(reason)"
        case .unsupportedSource:
            return "\(path) for \(named) is not a regular file; only regular files can be archived"
        case .sourceChanged:
            return "\(path) for \(named) changed while it was being archived (\(detail)); resume to archive it again"
        case .writeFailed where category == .noSpace:
            return "no space left while writing \(path); free some space, then resume"
        case .writeFailed:
            return "writing \(path) failed: \(reason)"
        case .readFailed where category == .invalidInput:
            return "\(path) is not a readable zip (truncated, corrupt or another format): \(reason)"
        case .readFailed:
            return "reading \(path) failed: \(reason)"
        }
    }

    /// The same as ``message``.
    public var description: String { message }

    /// The detail, followed by the system's words for ``code`` when that is an `errno` (not
    /// one of libarchive's stand-ins: `EILSEQ` for a bad format, `EINVAL` for misuse).
    private var reason: String {
        guard code > 0, code != EILSEQ, code != EINVAL else { return detail }
        return "\(detail) (\(String(cString: strerror(code))))"
    }
}
