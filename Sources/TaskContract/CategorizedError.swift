/// An error that knows which ``FailureCategory`` it belongs to and how to explain itself to the
/// person who ran the job.
///
/// Errors that do not conform are reported as ``FailureCategory/internal``.
public protocol CategorizedError: Error {
    /// The bounded category stored with the failed job.
    var category: FailureCategory { get }
    /// What happened and what to do next, for the person.
    var message: String { get }
}

extension Error {
    /// The error's category, `.internal` unless it says otherwise.
    public var failureCategory: FailureCategory {
        (self as? any CategorizedError)?.category ?? .internal
    }

    /// The error's message for the person.
    public var personMessage: String {
        (self as? any CategorizedError)?.message ?? String(describing: self)
    }
}
