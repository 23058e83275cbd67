/// A rule of the task contract was broken by the caller.
public enum TaskContractError: Error, Equatable, CustomStringConvertible {
    case invalidIdentifier(String)
    case wildcardIdentifier(String)
    case notAPattern(String)
    case subtitleTooLong(String)

    public var description: String {
        switch self {
        case .invalidIdentifier(let text):
            "'\(text)' is not a task identifier: use reverse-DNS components such as com.example.app.kind.<suffix> (letters, digits, - and _)"
        case .wildcardIdentifier(let text):
            "'\(text)' is a pattern for registration; submit a concrete identifier"
        case .notAPattern(let text):
            "'\(text)' names one task; a fresh identifier comes from a pattern ending in .*"
        case .subtitleTooLong(let text):
            "subtitle '\(text)' has \(text.count) characters; at most \(TaskSubtitle.maximumLength) are shown"
        }
    }
}
