import Foundation

/// A job's identity: the lowercase UUID at the end of its task identifier.
public struct JobID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The full UUID text.
    public let rawValue: String

    /// Wraps stored text; no checks.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A new random identity.
    public static func make() -> JobID { JobID(rawValue: UUID().uuidString.lowercased()) }

    /// The first eight characters, enough to name a job on the command line.
    public var short: String { String(rawValue.prefix(8)) }

    public var description: String { rawValue }

    public static func < (lhs: JobID, rhs: JobID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
