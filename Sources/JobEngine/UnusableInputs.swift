import Dispatch
import Foundation
import Synchronization
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

    /// ``collect(_:_:)`` with the checks run on every core at once: the same results, failures
    /// and thrown error, in the items' order, whatever order the checks finish in. For checks
    /// that only read (a photo's header), where a serial pass would keep one core busy and the
    /// others idle while the job is planned; every check runs, even after one has thrown.
    /// - Throws: ``UnusableInputs`` naming every failed item, or the first other error in the
    ///   items' order.
    public static func collectConcurrently<T: Sendable>(_ items: Range<Int>,
                                                        _ check: @Sendable (Int) throws -> T) throws -> [T] {
        let outcomes = Mutex<[Result<T, any Error>?]>(Array(repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { offset in
            let outcome = Result { try check(items.lowerBound + offset) }
            outcomes.withLock { $0[offset] = outcome }
        }
        let checked = outcomes.withLock { $0 }
        return try collect(items) { index in try checked[index - items.lowerBound]!.get() }
    }
}
