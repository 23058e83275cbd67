import Foundation
import Postgres
import Synchronization

/// A ``PostgresJobStore``'s one connection, used by one thread at a time: a call that lost a race
/// (serialization failure or deadlock) runs again, up to three tries, and a call that finds the
/// connection lost remakes it once, backing off while the server restarts, and runs again.
final class ReconnectingConnection: @unchecked Sendable {
    // `connection`, `repliesToDrop` and `repliesToKeep` are touched only while `lock` is held, which
    // is what makes the class Sendable.
    private let connection: Connection
    private let lock = NSLock()
    private var repliesToDrop = 0
    private var repliesToKeep = 0
    /// From when lost connections are no longer remade (``stopReconnecting(at:)``); `nil`: never.
    private let reconnectionDeadline = Mutex<ContinuousClock.Instant?>(nil)
    /// Signalled when ``reconnectionDeadline`` is set, to wake a reconnection waiting to try again.
    private let reconnectionDeadlineSet = DispatchSemaphore(value: 0)

    /// Wraps `connection`, already made and migrated.
    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Runs `body` on the connection, again when it lost a race, and once more on a remade
    /// connection when the old one was lost (``reconnect(lost:)``).
    func run<T>(_ body: (Connection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var racesLost = 0
        var reconnected = false
        while true {
            do {
                let result = try body(connection)
                try dropReplyIfAsked()
                return result
            } catch let error as PostgresError where error.isRetryable && racesLost < 2 {
                racesLost += 1
            } catch let error as PostgresError where error.kind == .connectionLost && !reconnected {
                reconnected = true
                try reconnect(lost: error)
            }
        }
    }

    /// From `deadline` on, a lost connection is not remade, and a reconnection in progress gives up
    /// by then; the earliest deadline set wins.
    func stopReconnecting(at deadline: ContinuousClock.Instant) {
        reconnectionDeadline.withLock { $0 = min($0 ?? deadline, deadline) }
        reconnectionDeadlineSet.signal()
    }

    /// For tests: the next `count` calls whose transaction committed lose their reply, as when the
    /// connection dies between the server's COMMIT and its answer: the call finds its connection
    /// lost, remakes it and runs its transaction again, as it would then. The first `kept` calls
    /// that committed keep theirs (a method whose second transaction's reply is to be lost).
    func dropReplies(_ count: Int, after kept: Int = 0) {
        lock.lock()
        defer { lock.unlock() }
        repliesToDrop = count
        repliesToKeep = kept
    }

    /// Throws the error a lost reply gives, if ``dropReplies(_:after:)`` asked for one (`lock` is held).
    private func dropReplyIfAsked() throws {
        guard repliesToDrop > 0 else { return }
        guard repliesToKeep == 0 else { return repliesToKeep -= 1 }
        repliesToDrop -= 1
        throw PostgresError(.connectionLost, detail: "the reply was dropped by the test")
    }

    /// Remakes the lost connection; while the server cannot be reached (it is restarting), tries
    /// again after 0.1 s, 0.2 s, 0.4 s … for about 25 s in all, then gives up; gives up sooner, by
    /// the deadline ``stopReconnecting(at:)`` set, and at once once it has passed.
    /// - Parameter lost: the error that found the connection lost.
    /// - Throws: `PostgresError` `.connectionFailed` from the last try, or `lost` when there was none.
    private func reconnect(lost: PostgresError) throws {
        var wait = Duration.milliseconds(100)
        var last = lost
        while true {
            if let deadline = reconnectionDeadline.withLock({ $0 }), deadline <= .now { throw last }
            do {
                return try connection.reset()
            } catch let error as PostgresError where error.kind == .connectionFailed && wait < .seconds(13) {
                last = error
                waitToReconnect(until: .now + wait)
                wait *= 2
            }
        }
    }

    /// Waits until `instant`, or until the reconnection deadline (``stopReconnecting(at:)``) when
    /// that comes sooner, even one set while waiting.
    private func waitToReconnect(until instant: ContinuousClock.Instant) {
        while true {
            let end = min(instant, reconnectionDeadline.withLock { $0 } ?? instant)
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return }
            _ = reconnectionDeadlineSet.wait(timeout: .now() + left / .seconds(1))
        }
    }
}
