import Synchronization

/// A one-way gate for tests: tasks wait at it until it is opened, then all pass.
///
/// Work under test waits with ``wait()`` (it is released by the test); the test waits with
/// ``wait(until:limit:)``, which gives up at a deadline naming what it waited for.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Waits until the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let passNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passNow { continuation.resume() }
        }
    }

    /// Waits until the gate is open, for at most `limit`: checks it every few milliseconds with
    /// `Task.sleep`, so tasks the test started meanwhile (which may be what opens it) can run.
    /// - Parameters:
    ///   - what: what opening the gate means, for the error (`"unit 1 started"`).
    ///   - limit: how long to wait at most; a guard against a hung test, not a timing assertion, so
    ///     generous: the tests share two cooperative threads with slow media tests on a 2-core machine.
    /// - Throws: ``GateTimedOut`` naming `what` when the gate stays closed.
    public func wait(until what: String, limit: Duration = .seconds(300)) async throws {
        let deadline = ContinuousClock.now + limit
        while !isOpen {
            guard ContinuousClock.now < deadline else { throw GateTimedOut(what: what, limit: limit) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Whether the gate is open.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the gate for every waiter, now and later.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A test waited at a ``Gate`` past its deadline.
public struct GateTimedOut: Error, CustomStringConvertible {
    /// What the gate's opening meant.
    public let what: String
    /// How long it was waited for.
    public let limit: Duration

    public var description: String { "gave up after \(limit) waiting until \(what)" }
}
