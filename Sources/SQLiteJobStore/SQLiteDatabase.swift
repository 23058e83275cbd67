import CSQLite
import Foundation
import Glibc
import JobEngine

/// One SQLite connection. ``SQLiteJobStore`` serialises every use under its lock, which is
/// what makes the unchecked `Sendable` sound.
final class SQLiteDatabase: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The database file.
    let path: String
    /// Every statement prepared so far, by its SQL: each is prepared once and reused.
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating if needed) the database at `path`, in WAL mode with full sync, foreign
    /// keys on, and a busy timeout so that other processes' writes are waited for.
    init(path: String) throws {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard let pointer, code == SQLITE_OK else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let extended = pointer.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_close_v2(pointer)
            throw SQLiteError(extendedCode: extended, sqliteMessage: message, statement: "opening \(path)")
        }
        handle = pointer
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 10_000)
        try switchToWAL()
        try execute(DurableFiles.isSyncEnabled ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        // The statements are finalised after this, as the dictionary goes; close_v2 waits for them.
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return nothing of interest; `context` names them in errors.
    func execute(_ sql: String, context: String? = nil) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), context ?? sql)
    }

    /// Turns on write-ahead logging. Switching needs a moment alone with the file, and SQLite
    /// does not wait for it through the busy timeout, so a process that opens a new store while
    /// another does retries for up to ten seconds.
    private func switchToWAL() throws {
        var attempts = 0
        while true {
            let code = sqlite3_exec(handle, "PRAGMA journal_mode = WAL", nil, nil, nil)
            guard code == SQLITE_BUSY || code == SQLITE_LOCKED, attempts < 1000 else {
                return try check(code, "switching \(path) to write-ahead logging")
            }
            attempts += 1
            usleep(10_000)
        }
    }

    /// The statement for `sql`, prepared the first time it is asked for and reused after.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        if let prepared = statements[sql] { return prepared }
        var pointer: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil), sql)
        let statement = SQLiteStatement(pointer!, database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, rolled back if it throws.
    func transaction<T>(context: String = "writing the job store", _ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE", context: context)
        do {
            let result = try body()
            try execute("COMMIT", context: context)
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Throws ``SQLiteError`` with SQLite's extended code and message unless `code` is OK, ROW
    /// or DONE; `statement` is the SQL (or the step) that gave it.
    func check(_ code: Int32, _ statement: String) throws {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return }
        throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), sqliteMessage: String(cString: sqlite3_errmsg(handle)),
                          statement: statement)
    }
}

/// One prepared statement, owned by its database's cache; finalised when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase
    private let sql: String
    /// The result's column positions by name.
    private lazy var columns: [String: Int32] = {
        Dictionary((0..<sqlite3_column_count(handle)).map { (String(cString: sqlite3_column_name(handle, $0)), $0) }) { first, _ in first }
    }()

    /// Makes SQLite copy bound text and blobs at once.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds values to `?1`, `?2`, … in order.
    @discardableResult
    func bind(_ values: [SQLiteValue]) throws -> SQLiteStatement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
            }
            try database.check(code, sql)
        }
        return self
    }

    /// Runs the statement to completion.
    func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement and reads each row with `read`.
    func rows<T>(_ values: [SQLiteValue] = [], _ read: (SQLiteRow) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [T] = []
        while try step() { result.append(try read(SQLiteRow(handle: handle, columns: columns, sql: sql))) }
        return result
    }

    private func step() throws -> Bool {
        let code = sqlite3_step(handle)
        try database.check(code, sql)
        return code == SQLITE_ROW
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Text, or NULL for `nil`.
    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// The current row of a stepping statement; columns by name.
struct SQLiteRow {
    fileprivate let handle: OpaquePointer
    fileprivate let columns: [String: Int32]
    fileprivate let sql: String

    /// The position of the column called `name`.
    /// - Throws: ``SQLiteStoreError/noSuchColumn(_:statement:)``.
    private func index(_ name: String) throws -> Int32 {
        guard let index = columns[name] else { throw SQLiteStoreError.noSuchColumn(name, statement: sql) }
        return index
    }

    func isNull(_ name: String) throws -> Bool { sqlite3_column_type(handle, try index(name)) == SQLITE_NULL }
    func integer(_ name: String) throws -> Int64 { sqlite3_column_int64(handle, try index(name)) }
    func real(_ name: String) throws -> Double { sqlite3_column_double(handle, try index(name)) }

    func text(_ name: String) throws -> String {
        guard let pointer = sqlite3_column_text(handle, try index(name)) else { return "" }
        return String(cString: pointer)
    }

    func optionalText(_ name: String) throws -> String? { try isNull(name) ? nil : try text(name) }
    func optionalReal(_ name: String) throws -> Double? { try isNull(name) ? nil : try real(name) }
    func optionalInteger(_ name: String) throws -> Int64? { try isNull(name) ? nil : try integer(name) }

    func blob(_ name: String) throws -> Data {
        let column = try index(name)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_blob(handle, column), count > 0 else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
