/// A column's PostgreSQL type, by its OID (`pg_type.oid`); the built-in types the bridge reads
/// have names here.
public struct PostgresType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The type's OID.
    public var rawValue: UInt32

    /// Wraps a type OID.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `boolean`.
    public static let bool = Self(rawValue: 16)
    /// `bytea`: bytes.
    public static let bytea = Self(rawValue: 17)
    /// `name`: a system identifier.
    public static let name = Self(rawValue: 19)
    /// `bigint`.
    public static let int8 = Self(rawValue: 20)
    /// `smallint`.
    public static let int2 = Self(rawValue: 21)
    /// `integer`.
    public static let int4 = Self(rawValue: 23)
    /// `text`.
    public static let text = Self(rawValue: 25)
    /// `json`.
    public static let json = Self(rawValue: 114)
    /// `real`.
    public static let float4 = Self(rawValue: 700)
    /// `double precision`.
    public static let float8 = Self(rawValue: 701)
    /// An untyped literal.
    public static let unknown = Self(rawValue: 705)
    /// `character(n)`.
    public static let bpchar = Self(rawValue: 1042)
    /// `character varying`.
    public static let varchar = Self(rawValue: 1043)
    /// `timestamp with time zone`.
    public static let timestamptz = Self(rawValue: 1184)
    /// `numeric`.
    public static let numeric = Self(rawValue: 1700)
    /// `uuid`.
    public static let uuid = Self(rawValue: 2950)
    /// `jsonb`.
    public static let jsonb = Self(rawValue: 3802)

    private static let names: [Self: String] = [
        .bool: "boolean", .bytea: "bytea", .name: "name", .int8: "bigint", .int2: "smallint", .int4: "integer",
        .text: "text", .json: "json", .float4: "real", .float8: "double precision", .unknown: "unknown",
        .bpchar: "character", .varchar: "character varying", .timestamptz: "timestamp with time zone",
        .numeric: "numeric", .uuid: "uuid", .jsonb: "jsonb",
    ]

    /// The type's SQL name, or `type OID n` for one without a name here.
    public var description: String { Self.names[self] ?? "type OID \(rawValue)" }
}
