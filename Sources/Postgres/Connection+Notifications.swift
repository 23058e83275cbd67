import CPostgres
import Glibc

/// `LISTEN` and `NOTIFY`: messages between sessions, delivered when the sender's transaction commits.
extension Connection {
    /// Listens to `channel` from now on, and again after every ``reset()``. Call it outside a
    /// transaction: inside one, listening starts only when it commits.
    /// - Parameter channel: the channel's name, any text without a NUL character (it is quoted).
    public func listen(_ channel: String) throws {
        try query("LISTEN " + quotedIdentifier(channel))
        channels.insert(channel)
    }

    /// Sends `payload` to every session listening to `channel` (`pg_notify`); inside a transaction,
    /// when it commits.
    /// - Parameters:
    ///   - channel: the channel's name.
    ///   - payload: the message, shorter than 8000 bytes.
    public func notify(_ channel: String, payload: String = "") throws {
        try query("SELECT pg_notify($1, $2)", channel, payload)
    }

    /// The notifications that have arrived, waiting for at least one until `deadline`.
    ///
    /// Sleeps in `poll` on the connection's socket between arrivals, so it uses no processor while it
    /// waits. Notifications that arrived while other statements ran are returned at once.
    /// - Parameter deadline: when to give up waiting.
    /// - Returns: the notifications in the order they arrived; empty when none came before `deadline`.
    /// - Throws: ``PostgresError`` `.connectionLost` when the session ends while waiting.
    public func notifications(until deadline: ContinuousClock.Instant) throws -> [PostgresNotification] {
        var received = try receivedNotifications()
        while received.isEmpty {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard socket.fd >= 0 else { throw PostgresError(lostConnection: handle, while: "waiting for notifications") }
            let milliseconds = min((remaining / .milliseconds(1)).rounded(.up), Double(Int32.max))
            if poll(&socket, 1, Int32(milliseconds)) < 0, errno != EINTR {
                let reason = String(cString: strerror(errno))
                throw PostgresError(.connectionLost, detail: "poll failed: \(reason)", target: target)
            }
            received = try receivedNotifications()
        }
        return received
    }

    /// Reads what the server has sent and takes the notifications from it.
    private func receivedNotifications() throws -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1, isConnected else {
            throw PostgresError(lostConnection: handle, while: "waiting for notifications")
        }
        var received: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(PostgresNotification(notify.pointee))
            PQfreemem(notify)
        }
        return received
    }
}
