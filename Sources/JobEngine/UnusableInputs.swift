import Foundation
import TaskContract

/// Inputs found unusable when a job is planned (missing, unreadable, not a photo or video, over
/// the pixel limit), all named at once so that nothing runs until they are fixed or left out.
public struct UnusableInputs: CategorizedError, Equatable {
    /// Each unusable input, in the person's words, with why.
    public var failures: [ItemFailure]

    public init(failures: [ItemFailure]) {
        self.failures = failures
    }

    public var category: FailureCategory { .invalidInput }

    public var message: String {
        "\(Self.lead(failures.count)): " + failures.map(\.clause).joined(separator: "; ")
            + ". Nothing was done; fix or remove \(failures.count == 1 ? "it" : "them")"
    }

    private static func lead(_ count: Int) -> String { "\(Plural.of(count, "input")) cannot be used" }

    /// Whether `message` (a rejection's) is one of these: the command line then offers to leave
    /// the inputs out.
    public static func describes(_ message: String) -> Bool {
        message.range(of: #"^[0-9]+ inputs? cannot be used: "#, options: .regularExpression) != nil
    }

    /// Runs `check` for each of `items`, collecting their ``ItemFailure``s, and returns what the
    /// checks return in order.
    /// - Throws: ``UnusableInputs`` naming every failed item, once all were checked.
    public static func collect<T>(_ items: Range<Int>, _ check: (Int) throws -> T) throws -> [T] {
        var results: [T] = [], failures: [ItemFailure] = []
        for index in items {
            do {
                results.append(try check(index))
            } catch let failure as ItemFailure {
                failures.append(failure)
            }
        }
        guard failures.isEmpty else { throw UnusableInputs(failures: failures) }
        return results
    }
}
