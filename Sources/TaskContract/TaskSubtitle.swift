/// The short line under a task's title: the stage and counts (`encode 12/50`), never a file
/// name, path or account.
///
/// At most ``maximumLength`` characters, because the line is cut beyond that where it is shown.
public struct TaskSubtitle: Sendable, Codable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The longest subtitle accepted.
    public static let maximumLength = 30

    /// The subtitle's text.
    public let text: String

    /// Checks and wraps a subtitle.
    /// - Throws: ``TaskContractError/subtitleTooLong(_:)`` beyond ``maximumLength`` characters.
    public init(_ text: String) throws {
        guard text.count <= Self.maximumLength else { throw TaskContractError.subtitleTooLong(text) }
        self.text = text
    }

    /// A literal subtitle; a literal that breaks the rules is a programmer error.
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
