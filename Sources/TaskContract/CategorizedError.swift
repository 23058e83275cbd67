/// An error that knows which ``FailureCategory`` it belongs to and how to explain itself to the
/// person who ran the job.
///
/// Errors that do not conform are reported as ``FailureCategory/internal``.
public protocol CategorizedError: Error {
    /// The bounded category stored with the failed job.
    var category: FailureCategory { get }
    /// What happened and what to do next, for the person.
    var message: String { get }
    /// What happened, without ``message``'s advice on what to do next: for a sentence that says
    /// itself what happens next (a process that stops, or tries again by itself).
    var cause: String { get }
}

extension CategorizedError {
    /// The whole ``message``, for errors whose message gives no advice of its own.
    public var cause: String { message }
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

    /// What happened, for the person, without the error's advice on what to do next
    /// (``CategorizedError/cause``): for a sentence that says itself what happens next.
    public var personCause: String {
        (self as? any CategorizedError)?.cause ?? String(describing: self)
    }
}
