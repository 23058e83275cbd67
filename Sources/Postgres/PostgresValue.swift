import Foundation

/// A statement parameter as it is sent: NULL, text (PostgreSQL's text format, which the server
/// converts to the parameter's type), or bytes (binary format, for `bytea`).
public enum PostgresValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL NULL.
    case null
    /// A value in PostgreSQL's text format. It must not contain a NUL character.
    case text(String)
    /// Raw bytes, sent in binary format: a `bytea` value.
    case bytes(Data)

    /// `NULL`, the text quoted, or the byte count: parameters can be long, and bytes unreadable.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .text(let text): text.debugDescription
        case .bytes(let data): "\(data.count) bytes"
        }
    }
}

/// A Swift value that can be a statement parameter.
///
/// `String`, `Int`, `Int64`, `Int32`, `Double`, `Bool`, `Data`, ``PostgresValue`` and optionals of
/// them conform; `nil` is sent as NULL.
public protocol PostgresEncodable: Sendable {
    /// The value as it is sent.
    var postgresValue: PostgresValue { get }
}

extension PostgresValue: PostgresEncodable {
    public var postgresValue: PostgresValue { self }
}

extension String: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self) }
}

extension Int: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int32: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Double: PostgresEncodable {
    /// Swift's shortest exact form, which PostgreSQL reads back to the same `float8`; `NaN`,
    /// `Infinity` and `-Infinity` as PostgreSQL spells them.
    public var postgresValue: PostgresValue {
        if isNaN { return .text("NaN") }
        if isInfinite { return .text(self < 0 ? "-Infinity" : "Infinity") }
        return .text(description)
    }
}

extension Bool: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self ? "true" : "false") }
}

extension Data: PostgresEncodable {
    public var postgresValue: PostgresValue { .bytes(self) }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}
