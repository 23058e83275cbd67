import Foundation
import Postgres
import PostgresTestKit
import Testing

/// Values go to the server as parameters and come back untouched, whatever characters they hold.
/// The server's own view of each value (`octet_length`, `encode(…, 'hex')`) is the reference.
struct ParameterTests {
    static let hostileTexts = [
        "O'Brien", "say \"hi\"", "a; DROP TABLE items; --", "'); DROP TABLE items; --", #"C:\path\to\file"#,
        #"\x00 and \\ and \'"#, "$1 $2 ?", "tab\tnew\nline\r", "Äpfel, café, naïve", "中文 日本語 한국어", "🎬🎞️👩‍👩‍👧‍👦🇫🇷",
        "", " ",
    ]

    @Test func textWithQuotesSemicolonsBackslashesAndEmojiGoesThroughUntouched() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query("CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL)")
            for text in Self.hostileTexts {
                let hex = Array(text.utf8).map { String(format: "%02x", $0) }.joined()
                let row = try #require(
                    try connection.query(
                        "INSERT INTO items (name) VALUES ($1) RETURNING name, octet_length(name) AS bytes, "
                            + "encode(convert_to(name, 'UTF8'), 'hex') AS hex", text
                    ).first
                )
                #expect(try row["name"] == text)
                #expect(try row["bytes"] == text.utf8.count)
                #expect(try row["hex"] == hex)
                let found = try connection.query("SELECT count(*) AS n FROM items WHERE name = $1", text)
                #expect(try found[0]["n"] == 1, "exactly one row has \(text.debugDescription)")
            }
            let stored = try connection.query("SELECT name FROM items ORDER BY id").map { try $0["name"] as String }
            #expect(stored == Self.hostileTexts)
        }
    }

    @Test func textWithANulCharacterIsRefusedNamingTheParameterAndNothingRuns() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query("CREATE TABLE items (name text)")
            let error = try #require(throws: PostgresError.self) {
                try connection.query("INSERT INTO items VALUES ($1), ($2)", "fine", "nul\u{0}inside")
            }
            #expect(error.kind == .invalidParameter)
            #expect(error.message.contains("$2"))
            #expect(error.category == .invalidInput)
            #expect(try connection.query("SELECT count(*) AS n FROM items")[0]["n"] == 0)
        }
    }

    @Test func everyByteValueGoesThroughAsBytea() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let bytes = Data((0...255).map { UInt8($0) } + [0, 0, 92, 39, 0])
            let row = try connection.query("SELECT $1::bytea AS value, encode($1::bytea, 'hex') AS hex, length($1::bytea) AS n", bytes)[0]
            #expect(try row["value"] == bytes)
            #expect(try row["hex"] == bytes.map { String(format: "%02x", $0) }.joined())
            #expect(try row["n"] == bytes.count)
            #expect(try connection.query("SELECT ''::bytea AS empty")[0]["empty"] == Data())
        }
    }

    @Test func integersDoublesAndBooleansKeepTheirValues() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            for number in [Int64.min, -1, 0, 1, Int64.max] {
                let row = try connection.query("SELECT $1::bigint AS value, ($1::bigint)::text AS text", number)[0]
                #expect(try row["value"] == number)
                #expect(try row["text"] == String(number))
            }
            for number in [0.1, -2.5e-300, 1e300, .pi, .infinity, -.infinity, 0] {
                let row = try connection.query("SELECT $1::float8 AS value", number)[0]
                #expect(try row["value"] == number)
            }
            let nan: Double = try connection.query("SELECT $1::float8 AS value", Double.nan)[0]["value"]
            #expect(nan.isNaN)
            let flags = try connection.query("SELECT $1::boolean AS yes, $2::boolean AS no, $3::int4 AS small", true, false, Int32(7))[0]
            #expect(try flags["yes"] == true)
            #expect(try flags["no"] == false)
            #expect(try flags["small"] == 7)
        }
    }

    @Test func nilOptionalsAreSentAsNull() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            let missing: String? = nil
            let row = try connection.query(
                "SELECT $1::text IS NULL AS a, $2::bigint IS NULL AS b, $3::text AS c", missing, PostgresValue.null, Optional("x")
            )[0]
            #expect(try row["a"] == true)
            #expect(try row["b"] == true)
            #expect(try row["c"] == "x")
        }
    }
}
