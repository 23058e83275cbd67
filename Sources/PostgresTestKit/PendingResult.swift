import Synchronization

/// The result of work queued on a ``QueuedConnection``, to be awaited once it is wanted.
public final class PendingResult<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    init() {}

    /// Records the result and wakes whoever awaits it.
    func fulfil(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state in
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// What the work returned, once it has finished. One task awaits it.
    /// - Throws: what the work threw.
    public func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let finished = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let finished { continuation.resume(with: finished) }
        }
    }
}
