/// How a task ended. Each outcome is recorded and shown as itself: a stop on purpose is
/// ``paused``, never ``failed(_:)``.
public enum TaskOutcome: Sendable, Equatable, Codable, CustomStringConvertible {
    /// All work is done and the result is in place.
    case completed
    /// Stopped on purpose, by the person or the system; resumable from the last checkpoint.
    case paused
    /// Ended by an error of the given category; resumable where the cause allows.
    case failed(FailureCategory)
    /// Submission was refused and no work started.
    case rejected(RejectionReason)
    /// The person threw the job and its partial work away.
    case discarded

    /// The outcome's name as stored and printed: `completed`, `paused`, `failed`, `rejected`, `discarded`.
    public var name: String {
        switch self {
        case .completed: "completed"
        case .paused: "paused"
        case .failed: "failed"
        case .rejected: "rejected"
        case .discarded: "discarded"
        }
    }

    public var description: String {
        switch self {
        case .failed(let category): "failed (\(category.rawValue))"
        case .rejected(let reason): "rejected (\(reason.rawValue))"
        default: name
        }
    }
}

/// Why a task failed: a bounded category, never free text with paths or user data (that goes to
/// the journal).
public enum FailureCategory: String, Sendable, Codable, CaseIterable {
    /// The input is invalid, corrupt or unsupported.
    case invalidInput = "invalid_input"
    /// The destination's disk is full.
    case noSpace = "no_space"
    /// Reading or writing failed.
    case io
    /// The destination already holds something and replacing it was not asked for.
    case destinationExists = "destination_exists"
    /// A resource the work needs vanished or ran out (device, memory, descriptors).
    case resource
    /// The job's own code failed.
    case `internal`
}

/// Why a submission was refused.
public enum RejectionReason: String, Sendable, Codable, CaseIterable {
    /// The strategy was `.fail` and no capacity was free.
    case noCapacity = "no_capacity"
    /// A required resource is not among the supported ones.
    case unsupportedResource = "unsupported_resource"
    /// The request or its input is invalid.
    case invalidInput = "invalid_input"
    /// No handler is registered for the identifier.
    case unregisteredIdentifier = "unregistered_identifier"
    /// The same work is already a job that is not finished.
    case duplicate
}
