import Synchronization

/// Where a worker's idle slots wait before they look for a chunk again: until their wait is over,
/// or sooner, once the store announces new work (``wakeAll()``).
///
/// A slot reads ``generation`` before it looks: work announced between its look and its wait ends
/// that wait at once, so no announcement falls between the two.
package final class IdleSlots: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var lastWait: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// How many times work was announced so far.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// How many slots wait now.
    package var waitingSlots: Int { state.withLock { $0.waiting.count } }

    /// Waits for `wait`, or less: not at all when work was announced since `generation` was
    /// `seen`, and no longer once it is.
    package func wait(upTo wait: Duration, unlessAnnouncedSince seen: UInt64) async {
        await withCheckedContinuation { continuation in
            let id: UInt64? = state.withLock { state in
                guard state.generation == seen else { return nil }
                state.lastWait += 1
                state.waiting[state.lastWait] = continuation
                return state.lastWait
            }
            guard let id else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: wait)
                self.state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
            }
        }
    }

    /// Ends every wait now: work was announced.
    package func wakeAll() {
        let waiting = state.withLock { state in
            state.generation += 1
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
