import Foundation

/// The name of one task, in reverse-DNS form under a name its program owns:
/// `com.example.myapp.hash.6f9619ff-…`; `mediajob`'s own kinds use `mediajob.<kind>.<uuid>`.
///
/// Handlers are registered under a permitted identifier, which may end in `.*` to accept any
/// suffix (``TaskIdentifier/matches(_:)``), as `BGTaskSchedulerPermittedIdentifiers` allows; the
/// engine finds a task's kind by that registration, never by reading the name.
public struct TaskIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The identifier as text.
    public let rawValue: String

    /// Checks and wraps an identifier.
    /// - Throws: ``TaskContractError/invalidIdentifier(_:)`` unless it has at least two
    ///   components separated by `.`, each of letters, digits, `-` and `_` (the last may be `*`).
    public init(_ rawValue: String) throws {
        let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard parts.count >= 2,
              parts.enumerated().allSatisfy({ index, part in
                  (index == parts.count - 1 && part == "*")
                      || (!part.isEmpty && part.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) })
              })
        else { throw TaskContractError.invalidIdentifier(rawValue) }
        self.rawValue = rawValue
    }

    /// A fresh identifier for one task this pattern admits: the `*` replaced by a lowercase UUID
    /// (`com.example.myapp.hash.*` gives `com.example.myapp.hash.6f9619ff-…`).
    /// - Throws: ``TaskContractError/notAPattern(_:)`` when this is not a pattern ending in `.*`.
    public func unique(id: UUID = UUID()) throws -> TaskIdentifier {
        guard isWildcard else { throw TaskContractError.notAPattern(rawValue) }
        return try TaskIdentifier(String(rawValue.dropLast()) + id.uuidString.lowercased())
    }

    /// Whether this is a pattern ending in `.*` rather than one task's name.
    public var isWildcard: Bool { rawValue.hasSuffix(".*") }

    /// Whether `self`, a permitted identifier (exact, or ending in `.*`), admits `identifier`.
    public func matches(_ identifier: TaskIdentifier) -> Bool {
        guard isWildcard else { return self == identifier }
        let stem = rawValue.dropLast(1) // keeps the trailing "."
        return identifier.rawValue.hasPrefix(stem) && identifier.rawValue.count > stem.count
    }

    /// Whether some identifier is admitted by both `self` and `other`, two permitted identifiers.
    public func overlaps(_ other: TaskIdentifier) -> Bool {
        switch (isWildcard, other.isWildcard) {
        case (false, false): self == other
        case (true, false): matches(other)
        case (false, true): other.matches(self)
        case (true, true): rawValue.dropLast().hasPrefix(other.rawValue.dropLast())
            || other.rawValue.dropLast().hasPrefix(rawValue.dropLast())
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
