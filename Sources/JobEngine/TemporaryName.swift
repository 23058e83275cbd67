import Foundation
import Synchronization

/// Names for files written before they are renamed into place: `.tmp-<process>-<n>-<name>`.
///
/// The process part is one random UUID drawn when the process first needs a name, so processes
/// writing into the same folder (workers on other machines included) never pick the same name;
/// `n` counts up within the process. One UUID per process instead of one per file: a UUID costs
/// a read of `/dev/urandom`, which was a system call per committed chunk.
enum TemporaryName {
    /// What every temporary name starts with (``Workspace/sweepTemporaries()`` looks for it).
    static let prefix = ".tmp-"

    private static let process = UUID().uuidString
    private static let counter = Atomic(0)

    /// A name no other call, in this process or another, returns, ending in `name`.
    static func next(for name: String) -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(prefix)\(process)-\(number)-\(name)"
    }
}
