import CPostgres

/// Which server, database and user a connection is for: what errors and descriptions name.
///
/// It never holds a password.
public struct ConnectionTarget: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address, or the Unix socket's folder (a path starting with `/`).
    public var host: String
    /// The port, as libpq has it.
    public var port: String
    /// The database's name.
    public var database: String
    /// The user's name.
    public var user: String

    /// Creates a target; connections make their own, tests may too.
    public init(host: String, port: String, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }

    /// What libpq says a connection is for (after libpq applied defaults and environment variables).
    init(_ connection: OpaquePointer) {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        self.init(
            host: text(PQhost(connection)), port: text(PQport(connection)),
            database: text(PQdb(connection)), user: text(PQuser(connection))
        )
    }

    /// `database "d" as user "u" on host:port`, or `… on the socket in /dir (port p)`.
    public var description: String {
        let place = host.hasPrefix("/") ? "the socket in \(host) (port \(port))" : "\(host):\(port)"
        return "database \"\(database)\" as user \"\(user)\" on \(place)"
    }
}
