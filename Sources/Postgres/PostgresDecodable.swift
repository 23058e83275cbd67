import CPostgres
import Foundation

/// A Swift type a result column can be read as, checked against the column's type.
///
/// `Int64` and `Int` read `smallint`, `integer` and `bigint`; `Double` reads `real`, `double
/// precision` and `numeric`; `String` reads the text types (`text`, `varchar`, `char`, `name`,
/// `json`, `jsonb`, `uuid`, untyped literals); `Bool` reads `boolean`; `Data` reads `bytea`. An
/// optional of any of them reads NULL as `nil`; the plain type refuses NULL.
public protocol PostgresDecodable {
    /// Reads a value.
    /// - Throws: ``PostgresError`` `.unexpectedNull` or `.typeMismatch`, naming the column.
    static func decode(from cell: PostgresCell) throws -> Self
}

extension Set where Element == PostgresType {
    /// The integer types.
    static let integers: Self = [.int2, .int4, .int8]
    /// The types whose text is a Swift `String` as it stands.
    static let texts: Self = [.text, .varchar, .bpchar, .name, .unknown, .json, .jsonb, .uuid]
}

extension Int64: PostgresDecodable {
    public static func decode(from cell: PostgresCell) throws -> Int64 {
        guard let value = Int64(try cell.text(ofTypes: .integers, readingAs: "Int64")) else {
            throw cell.mismatch(readingAs: "Int64")
        }
        return value
    }
}

extension Int: PostgresDecodable {
    public static func decode(from cell: PostgresCell) throws -> Int {
        guard let value = Int(try cell.text(ofTypes: .integers, readingAs: "Int")) else {
            throw cell.mismatch(readingAs: "Int")
        }
        return value
    }
}

extension Double: PostgresDecodable {
    /// Reads `NaN`, `Infinity` and `-Infinity` too.
    public static func decode(from cell: PostgresCell) throws -> Double {
        guard let value = Double(try cell.text(ofTypes: [.float4, .float8, .numeric], readingAs: "Double")) else {
            throw cell.mismatch(readingAs: "Double")
        }
        return value
    }
}

extension String: PostgresDecodable {
    public static func decode(from cell: PostgresCell) throws -> String {
        try cell.text(ofTypes: .texts, readingAs: "String")
    }
}

extension Bool: PostgresDecodable {
    public static func decode(from cell: PostgresCell) throws -> Bool {
        switch try cell.text(ofTypes: [.bool], readingAs: "Bool") {
        case "t": true
        case "f": false
        default: throw cell.mismatch(readingAs: "Bool")
        }
    }
}

extension Data: PostgresDecodable {
    /// Reads `bytea`'s text format (`\x` and hex digits) through `PQunescapeBytea`.
    public static func decode(from cell: PostgresCell) throws -> Data {
        let text = try cell.text(ofTypes: [.bytea], readingAs: "Data")
        var count = 0
        guard let bytes = PQunescapeBytea(Array(text.utf8) + [0], &count) else { throw cell.mismatch(readingAs: "Data") }
        defer { PQfreemem(bytes) }
        return Data(bytes: bytes, count: count)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// `nil` for NULL, else the wrapped type's value.
    public static func decode(from cell: PostgresCell) throws -> Wrapped? {
        cell.text == nil ? nil : try Wrapped.decode(from: cell)
    }
}
