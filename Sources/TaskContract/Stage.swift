/// A named stage of a job's work. Media jobs use ``render``, ``encode`` and ``package``; an
/// embedding program may name its own.
public struct Stage: RawRepresentable, Hashable, Sendable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decoding and editing.
    public static let render = Stage(rawValue: "render")
    /// Compressing rendered work.
    public static let encode = Stage(rawValue: "encode")
    /// Assembling, validating and publishing the result.
    public static let package = Stage(rawValue: "package")

    public var description: String { rawValue }

    public var codingKey: any CodingKey { StageKey(stringValue: rawValue) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(rawValue: codingKey.stringValue)
    }

    private struct StageKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
