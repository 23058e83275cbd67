import Foundation
import JobEngine
import PostgresJobStore
import SQLiteJobStore

/// Where jobs are kept: the embedded SQLite store in the state folder (the default), or a
/// PostgreSQL database that many machines share.
package enum StoreLocation: Equatable {
    /// The SQLite file at this path.
    case sqlite(path: String)
    /// The PostgreSQL database a libpq connection string names (it may hold a password: never print it).
    case postgres(connectionString: String)

    /// The store `--store`, else `MEDIAJOB_STORE`, selects; without either, `jobs.sqlite` in `stateDirectory`.
    ///
    /// A `postgresql://` or `postgres://` URL, or a libpq `key=value` string (`host=db1 dbname=media`),
    /// selects PostgreSQL and is handed to libpq as it is, so `PGHOST`, `PGPASSFILE`, `~/.pgpass` and
    /// `sslmode` work as libpq documents.
    /// - Throws: ``UsageError`` for any other value, without repeating it (it may hold a password).
    package static func select(option: String?, environment: [String: String], stateDirectory: URL) throws -> StoreLocation {
        let (value, source) = option.map { ($0, "--store") } ?? (environment["MEDIAJOB_STORE"] ?? "", "MEDIAJOB_STORE")
        if value.isEmpty {
            guard option == nil else { throw UsageError("--store needs a postgresql:// URL") }
            return .sqlite(path: stateDirectory.appendingPathComponent("jobs.sqlite").path)
        }
        let lowered = value.lowercased()
        guard lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") || value.contains("=") else {
            throw UsageError("\(source) takes a postgresql:// URL or a libpq connection string such as "
                + "'host=db1 dbname=mediajob'; without it, jobs are kept in the state folder")
        }
        return .postgres(connectionString: value)
    }

    /// `connectionString` with any password removed, to show or repeat in a suggested command.
    package static func withoutPassword(_ connectionString: String) -> String {
        if var url = URLComponents(string: connectionString), url.scheme != nil {
            url.password = nil
            url.queryItems = url.queryItems.map { $0.filter { $0.name != "password" } }.flatMap { $0.isEmpty ? nil : $0 }
            return url.string ?? "postgresql://…"
        }
        return connectionString.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(separator: " ")
    }

    /// A listener for the cancels and new work announced through this store, on a connection of its
    /// own; `nil` for SQLite, which announces nothing, or when no connection could be made now (renewals
    /// still report a cancel, within a third of the lease).
    package func announcementListener() -> AnnouncementListener? {
        guard case .postgres(let connectionString) = self else { return nil }
        return try? AnnouncementListener(connectionString)
    }

    /// This store on a connection of its own, for a worker's lease renewals and announcements, or
    /// for its commits, so that they never wait behind its claims (one waiting on a lock another
    /// session holds, or a commit on its WAL flush), nor these behind them (a renewal on a link gone
    /// silent, until `tcp_user_timeout`). Same connection string, so the same keepalives, and a lost
    /// connection is remade with backoff as the store's is. `nil` for SQLite (one writer at a time
    /// whatever the connection) or when no connection can be made now: the worker then uses its store.
    package func storeOnItsOwnConnection() -> (any LeasingJobStore)? {
        guard case .postgres(let connectionString) = self else { return nil }
        return try? PostgresJobStore(connectionString)
    }

    /// Opens the store, creating or migrating its schema.
    /// - Throws: what the store's opening throws (a PostgreSQL error names the server, never the password).
    package func open() throws -> any JobStore {
        switch self {
        case .sqlite(let path): try SQLiteJobStore(path: path)
        case .postgres(let connectionString): try PostgresJobStore(connectionString)
        }
    }
}
