import CPostgres
import Foundation

/// One session with a PostgreSQL server, through libpq.
///
/// Opened from a libpq connection string — a URL (`postgresql://user@host:5432/db?sslmode=require`)
/// or `key=value` pairs — so `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSFILE`, `~/.pgpass`, `sslmode`
/// and the rest work as libpq documents. The connection keeps no copy of the string, and no error
/// or description names the password.
///
/// Every statement takes parameters (``query(_:_:)-(String,_)``); named statements are prepared once
/// per session (``query(_:_:)-(PreparedStatement,_)``). At connect, and again after ``reset()``, the
/// session gets `idle_in_transaction_session_timeout`, UTF-8 as its client encoding, and the
/// settings given to ``init(_:idleInTransactionSessionTimeout:settings:)``, and listens again to
/// its channels.
///
/// Unless the connection string sets them, a connection gets libpq's TCP keepalives and a TCP user
/// timeout (``networkDefaults``), so that a call on a connection that went silent fails within
/// seconds.
///
/// A connection is not `Sendable`: one task or thread uses it at a time (hand it over with
/// `sending`, or keep it in an actor or a `Mutex`). libpq's notices are not printed.
public final class Connection: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// libpq's `PGconn`, owned.
    let handle: OpaquePointer
    /// Run with `set_config` at connect and after every reset, in this order.
    private let sessionSettings: [(name: String, value: String)]
    /// Statements prepared in this session: name to SQL.
    var preparedStatements: [String: String] = [:]
    /// Channels this session listens to, listened to again after a reset.
    var channels: Set<String> = []

    /// Connects, and prepares the session.
    /// - Parameters:
    ///   - connectionString: a libpq connection URL or `key=value` string.
    ///   - idleInTransactionSessionTimeout: how long the server lets this session sit idle inside a
    ///     transaction before ending it (so a stuck client cannot hold locks for long).
    ///   - settings: more run-time settings for the session (`search_path`, `application_name`, …).
    /// - Throws: ``PostgresError`` `.connectionFailed`, naming host, port, database and user — never the
    ///   password — when the string is malformed or the server cannot be reached or refuses.
    public init(
        _ connectionString: String, idleInTransactionSessionTimeout: Duration = .seconds(60),
        settings: [String: String] = [:]
    ) throws {
        let redactor = SecretRedactor(connectionString: connectionString)
        try Self.checkSyntax(connectionString, redactor: redactor)
        guard let handle = Self.connect(connectionString) else {
            throw PostgresError(.connectionFailed, detail: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = PostgresError(connecting: handle, redactor: redactor)
            PQfinish(handle)
            throw error
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
        let milliseconds = idleInTransactionSessionTimeout / .milliseconds(1)
        sessionSettings = [
            ("client_encoding", "UTF8"),
            ("idle_in_transaction_session_timeout", String(Int64(milliseconds.rounded(.up)))),
        ] + settings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        try prepareSession()
    }

    deinit {
        PQfinish(handle)
    }

    /// Ends the session and starts a new one with the same parameters (`PQreset`), then prepares it
    /// as at connect: its settings, and `LISTEN` on its channels. Statements prepared in the old
    /// session are prepared again on first use.
    /// - Throws: ``PostgresError`` `.connectionFailed` when no new session could be made; the
    ///   connection can be reset again later.
    public func reset() throws {
        PQreset(handle)
        preparedStatements = [:]
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(connecting: handle, redactor: SecretRedactor(connection: handle))
        }
        try prepareSession()
    }

    /// Whether the session was usable when libpq last heard from the server. A session the server
    /// ended shows as broken only once a call has noticed.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server process serving this session (`pg_backend_pid()`).
    public var serverProcessID: Int32 { PQbackendPID(handle) }

    /// Which server, database and user this connection is for.
    public var target: ConnectionTarget { ConnectionTarget(handle) }

    /// `PostgreSQL connection to <target> (connected)`.
    public var description: String {
        "PostgreSQL connection to \(target) (\(isConnected ? "connected" : "broken"))"
    }

    /// The description, with the server process and what the session has prepared and listens to.
    public var debugDescription: String {
        "\(description), server process \(serverProcessID), \(preparedStatements.count) prepared statements, "
            + "listening to \(channels.sorted())"
    }

    /// The target and state only: the mirror shows nothing libpq holds (such as the password).
    public var customMirror: Mirror {
        Mirror(self, children: [
            "target": target, "isConnected": isConnected, "serverProcessID": serverProcessID,
            "preparedStatements": preparedStatements.keys.sorted(), "channels": channels.sorted(),
        ])
    }

    /// Applies the session's settings and listens to its channels again.
    private func prepareSession() throws {
        for setting in sessionSettings {
            try query("SELECT set_config($1, $2, false)", setting.name, setting.value)
        }
        for channel in channels.sorted() {
            try query("LISTEN " + quotedIdentifier(channel))
        }
    }

    /// libpq parameters every connection gets unless its connection string sets them, or the
    /// environment does (`PGCONNECT_TIMEOUT`): a connection that went silent (a link down, a
    /// machine gone) fails within about ten seconds instead of waiting for the kernel's TCP
    /// timeouts (minutes to hours). `tcp_user_timeout` ends a call whose data has gone
    /// unacknowledged for 10 s; keepalives probe an idle connection after 5 s, then every 2 s, and
    /// give up after 3 unanswered probes; `connect_timeout` bounds each connection attempt. All of
    /// them apply to TCP only, not to Unix sockets.
    public static let networkDefaults: [(key: String, value: String)] = [
        ("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
        ("keepalives_count", "3"), ("tcp_user_timeout", "10000"),
    ]

    /// `PQconnectdbParams` with ``networkDefaults`` first and `connectionString` expanded after
    /// them: libpq keeps the last value of a repeated key, so the string's own settings win.
    private static func connect(_ connectionString: String) -> OpaquePointer? {
        let fromEnvironment = environmentSetKeys()
        let pairs = networkDefaults.filter { !fromEnvironment.contains($0.key) } + [(key: "dbname", value: connectionString)]
        let keys = pairs.map { strdup($0.key) }
        let values = pairs.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        return (keys.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywords in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { values in
                PQconnectdbParams(keywords.baseAddress, values.baseAddress, 1)
            }
        }
    }

    /// The libpq keys whose environment variable is set here (`PGCONNECT_TIMEOUT` for `connect_timeout`, …).
    private static func environmentSetKeys() -> Set<String> {
        guard let options = PQconndefaults() else { return [] }
        defer { PQconninfoFree(options) }
        var keys: Set<String> = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let variable = option.pointee.envvar, getenv(variable) != nil { keys.insert(String(cString: keyword)) }
            option += 1
        }
        return keys
    }

    /// Throws when libpq cannot parse `connectionString`. libpq's complaint quotes pieces of the
    /// string, which may hold a password, so quoted pieces are left out and known passwords removed.
    private static func checkSyntax(_ connectionString: String, redactor: SecretRedactor) throws {
        var message: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(connectionString, &message) {
            PQconninfoFree(options)
            return
        }
        let reason = message.map { String(cString: $0) } ?? "libpq gave no reason"
        PQfreemem(message)
        let unquoted = reason.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset.isMultiple(of: 2) ? String($0.element) : "…" }.joined(separator: "\"")
        let line = unquoted.split(whereSeparator: \.isNewline).joined(separator: " ")
        throw PostgresError(.connectionFailed, detail: "the connection string is malformed: " + redactor.redact(line))
    }

    /// `name` as a quoted SQL identifier (`PQescapeIdentifier`), for statements that cannot take an
    /// identifier as a parameter (`LISTEN`, table names).
    /// - Throws: ``PostgresError`` `.invalidParameter` for a name with a NUL character or one that
    ///   is not valid in the client encoding.
    func quotedIdentifier(_ name: String) throws -> String {
        guard !name.utf8.contains(0) else {
            throw PostgresError(.invalidParameter, detail: "the name \(name.debugDescription) contains a NUL character")
        }
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else {
            let reason = PostgresError.libpqMessage(handle)
            throw PostgresError(.invalidParameter, detail: "\(name.debugDescription) cannot be an SQL name: \(reason)")
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }
}
