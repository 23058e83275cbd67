import Dispatch
import Postgres

/// A ``Connection`` used only on a serial dispatch queue of its own, for tests whose statements
/// block (waiting on a lock, or in a race with another connection). Blocking a dispatch queue's
/// thread leaves Swift concurrency's few threads free for the rest of the test.
public final class QueuedConnection: @unchecked Sendable {
    // Touched only on `queue`, which is what makes the unchecked `Sendable` sound.
    private var connection: Connection?
    private let queue = DispatchQueue(label: "QueuedConnection")

    /// Opens the connection on its queue.
    init(_ open: @escaping @Sendable () throws -> Connection) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { self.connection = try open() })
            }
        }
    }

    /// Runs `body` with the connection on its queue, after what was asked of it before.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(self.connection!) })
            }
        }
    }
}
