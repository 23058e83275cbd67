import Foundation

/// The name of one task: `mediajob.<kind>.<suffix>`, for example `mediajob.export.6F9619FF-…`.
///
/// Handlers are registered under a permitted identifier, which may end in `.*` to accept any
/// suffix (``TaskIdentifier/matches(_:)``), as `BGTaskSchedulerPermittedIdentifiers` allows.
public struct TaskIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The prefix every identifier of this program starts with.
    public static let prefix = "mediajob"

    /// The identifier as text.
    public let rawValue: String

    /// Checks and wraps an identifier.
    /// - Throws: ``TaskContractError/invalidIdentifier(_:)`` unless it reads `mediajob.<kind>[.<more>]`
    ///   with components of letters, digits, `-` and `_` (the last may be `*`).
    public init(_ rawValue: String) throws {
        let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard parts.count >= 2, parts[0] == Self.prefix,
              parts.enumerated().allSatisfy({ index, part in
                  (index == parts.count - 1 && part == "*")
                      || (!part.isEmpty && part.unicodeScalars.allSatisfy(allowed.contains))
              })
        else { throw TaskContractError.invalidIdentifier(rawValue) }
        self.rawValue = rawValue
    }

    /// A fresh identifier for one job of `kind`: `mediajob.<kind>.<uuid>`.
    public static func unique(kind: String, id: UUID = UUID()) throws -> TaskIdentifier {
        try TaskIdentifier("\(prefix).\(kind).\(id.uuidString.lowercased())")
    }

    /// The job kind: the component after `mediajob.`.
    public var kind: String {
        String(rawValue.split(separator: ".")[1])
    }

    /// Whether this is a pattern ending in `.*` rather than one task's name.
    public var isWildcard: Bool { rawValue.hasSuffix(".*") }

    /// Whether `self`, a permitted identifier (exact, or ending in `.*`), admits `identifier`.
    public func matches(_ identifier: TaskIdentifier) -> Bool {
        guard isWildcard else { return self == identifier }
        let stem = rawValue.dropLast(1) // keeps the trailing "."
        return identifier.rawValue.hasPrefix(stem) && identifier.rawValue.count > stem.count
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
