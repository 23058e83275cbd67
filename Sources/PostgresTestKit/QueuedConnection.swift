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
        try await enqueue { self.connection = try open() }.value()
    }

    /// Queues `body` at once, from the calling thread, to run with the connection after what was
    /// queued before; its result is awaited later. Work started this way is under way even when
    /// no Swift concurrency thread is free.
    public func start<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) -> PendingResult<T> {
        enqueue { try body(self.connection!) }
    }

    /// Runs `body` with the connection on its queue, after what was queued before.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await start(body).value()
    }

    private func enqueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> PendingResult<T> {
        let pending = PendingResult<T>()
        queue.async { pending.fulfil(Result { try work() }) }
        return pending
    }
}
