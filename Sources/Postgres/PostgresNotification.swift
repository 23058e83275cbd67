import CPostgres

/// A notification received on a channel the connection listens to (`NOTIFY` or `pg_notify`).
public struct PostgresNotification: Sendable, Hashable, CustomStringConvertible {
    /// The channel's name.
    public var channel: String
    /// The payload; empty when none was sent.
    public var payload: String
    /// The server process of the session that sent it (``Connection/serverProcessID`` there).
    public var senderProcessID: Int32

    /// Creates a notification; connections make them, tests may too.
    public init(channel: String, payload: String, senderProcessID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderProcessID = senderProcessID
    }

    /// Copies libpq's notification.
    init(_ notify: PGnotify) {
        self.init(
            channel: String(cString: notify.relname), payload: notify.extra.map { String(cString: $0) } ?? "",
            senderProcessID: notify.be_pid
        )
    }

    /// `"payload" on channel from process n`.
    public var description: String { "\(payload.debugDescription) on \(channel) from process \(senderProcessID)" }
}
