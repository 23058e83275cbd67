import Glibc
import TaskContract

/// A file-system call failed. Carries the call, the path and `errno`, and says what to do.
public struct FileSystemError: CategorizedError, Equatable, CustomStringConvertible {
    /// The failed call, for example `fsync`.
    public var operation: String
    /// The path it was called on.
    public var path: String
    /// The `errno` it returned.
    public var code: Int32

    public init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var category: FailureCategory {
        switch code {
        case ENOSPC, EDQUOT: .noSpace
        case EMFILE, ENFILE, ENOMEM: .resource
        case EEXIST: .destinationExists
        default: .io
        }
    }

    public var message: String {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return "no space left on the device holding \(path); free some space, then resume"
        case EMFILE, ENFILE:
            return "too many open files while opening \(path); raise the limit (ulimit -n), then resume"
        case EEXIST:
            return "\(path) already exists; move it away, then resume"
        default:
            return "\(operation) failed for \(path): \(reason); check the device (for example with dmesg), then resume"
        }
    }

    public var description: String { message }
}
