import Foundation
import Postgres
import PostgresTestKit
import Testing

/// Rows are read by column name, as the type the column has; anything else is an error naming the column.
struct RowReadingTests {
    static let sql = """
        SELECT 42::int4 AS n, 'text'::text AS s, NULL::int8 AS z, 1.5::float8 AS f, 2.25::numeric AS d,
               '\\x00ff'::bytea AS b, true AS ok, 'exact'::varchar AS "MixedCase", 7::int2 AS tiny
        """

    @Test func columnsAreReadByNameWhateverTheirOrder() throws {
        try PostgresTestSchema.with { schema in
            let row = try #require(try schema.connect().query(Self.sql).first)
            #expect(try row["ok"] == true)
            #expect(try row["s"] == "text")
            #expect(try row["n"] == Int64(42))
            #expect(try row["n"] == 42)
            #expect(try row["tiny"] == 7)
            #expect(try row["f"] == 1.5)
            #expect(try row["d"] == 2.25)
            #expect(try row["b"] == Data([0, 255]))
            #expect(try row["MixedCase"] == "exact")
            #expect(row.result.columnNames == ["n", "s", "z", "f", "d", "b", "ok", "MixedCase", "tiny"])
        }
    }

    @Test func nullReadsAsNilAndIsRefusedForAPlainType() throws {
        try PostgresTestSchema.with { schema in
            let row = try #require(try schema.connect().query(Self.sql).first)
            #expect(try row["z"] as Int64? == nil)
            #expect(try row["n"] as Int64? == 42)
            let error = try #require(throws: PostgresError.self) { try row["z"] as Int64 }
            #expect(error.kind == .unexpectedNull)
            #expect(error.column == "z")
            #expect(error.message.contains("\"z\""))
        }
    }

    @Test func aTypeMismatchNamesTheColumnAndBothTypes() throws {
        try PostgresTestSchema.with { schema in
            let row = try #require(try schema.connect().query(Self.sql).first)
            let cases: [(column: String, read: (Row) throws -> Any, swiftType: String, sqlType: String)] = [
                ("n", { try $0["n"] as String }, "String", "integer"),
                ("s", { try $0["s"] as Int64 }, "Int64", "text"),
                ("b", { try $0["b"] as String }, "String", "bytea"),
                ("ok", { try $0["ok"] as Int }, "Int", "boolean"),
                ("f", { try $0["f"] as Data }, "Data", "double precision"),
                ("s", { try $0["s"] as Bool? as Any }, "Bool", "text"),
            ]
            for (column, read, swiftType, sqlType) in cases {
                let error = try #require(throws: PostgresError.self) { try read(row) }
                #expect(error.kind == .typeMismatch)
                #expect(error.column == column)
                #expect(error.message.contains("\"\(column)\"") && error.message.contains(swiftType) && error.message.contains(sqlType),
                        "\(error.message)")
            }
        }
    }

    @Test func anUnknownColumnIsAnErrorListingTheColumnsThereAre() throws {
        try PostgresTestSchema.with { schema in
            let row = try #require(try schema.connect().query(Self.sql).first)
            for name in ["missing", "mixedcase", "\"MixedCase\"", "N"] {
                let error = try #require(throws: PostgresError.self) { try row[name] as String }
                #expect(error.kind == .unknownColumn)
                #expect(error.column == name)
                #expect(error.message.contains("\"MixedCase\""))
            }
        }
    }

    @Test func rowsAffectedCountsChangedRows() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect()
            try connection.query("CREATE TABLE t (v int)")
            #expect(try connection.query("INSERT INTO t SELECT generate_series(1, 5)").rowsAffected == 5)
            #expect(try connection.query("UPDATE t SET v = v + 1 WHERE v > $1", 2).rowsAffected == 3)
            #expect(try connection.query("SELECT v FROM t ORDER BY v").map { try $0["v"] as Int } == [1, 2, 4, 5, 6])
            #expect(try connection.query("CREATE INDEX ON t (v)").rowsAffected == 0)
        }
    }
}
