import TaskContract

/// Where a job stands, as stored and shown.
public enum JobState: String, Sendable, Codable, CaseIterable {
    /// Submitted and waiting for capacity.
    case queued
    /// A live process is working on it.
    case running
    /// Stopped on purpose; `resume` continues it.
    case paused
    /// Its process vanished while it was queued or running; nothing resumes by itself.
    case interrupted
    case completed
    case failed
    case rejected
    case discarded

    /// The state a job is left in by a final outcome.
    public init(_ outcome: TaskOutcome) {
        switch outcome {
        case .completed: self = .completed
        case .paused: self = .paused
        case .failed: self = .failed
        case .rejected: self = .rejected
        case .discarded: self = .discarded
        }
    }

    /// Whether a process should be holding the job (queued or running).
    public var isLive: Bool { self == .queued || self == .running }

    /// Whether `resume` may continue the job from here.
    public var isResumable: Bool { self == .paused || self == .interrupted || self == .failed }

    /// Whether the job is over and its workspace can go.
    public var isFinished: Bool { self == .completed || self == .discarded || self == .rejected }
}
