import TaskContract

/// Why the scheduler refused a request, with what to do next.
public enum SchedulerError: CategorizedError, Equatable, CustomStringConvertible {
    /// The submission was refused; it is recorded as the rejected job with that identity.
    case rejected(JobID, RejectionReason, String)
    /// A handler was registered twice for the same kind.
    case alreadyRegistered(String)
    /// No job has that identity or prefix.
    case noSuchJob(String)
    /// More than one job starts with that prefix.
    case ambiguousJob(String, [JobID])
    /// Another live process owns the job.
    case ownedElsewhere(JobID, pid: Int32?)
    /// The job's state does not allow what was asked.
    case wrongState(JobID, JobState, String)
    /// The machine holds all work for now (it is too hot); the job stays as it was.
    case hostHolding(JobID, String)

    public var category: FailureCategory {
        switch self {
        case .rejected(_, .invalidInput, _), .noSuchJob, .ambiguousJob: .invalidInput
        default: .resource
        }
    }

    public var message: String {
        switch self {
        case .rejected(_, _, let message): message
        case .alreadyRegistered(let kind): "a handler for '\(kind)' jobs is already registered"
        case .noSuchJob(let text): "no job matches '\(text)'; list jobs with: mediajob jobs"
        case .ambiguousJob(let text, let ids):
            "'\(text)' matches \(ids.count) jobs (\(ids.map(\.short).joined(separator: ", "))); give more characters"
        case .ownedElsewhere(let id, let pid?):
            "job \(id.short) is being run by another process (pid \(pid)); watch it with: mediajob status \(id.short) --watch"
        case .ownedElsewhere(let id, nil):
            "job \(id.short) is being resumed, restarted or discarded by another process right now; "
                + "see where it stands with: mediajob status \(id.short)"
        case .wrongState(let id, let state, let advice): "job \(id.short) is \(state.rawValue); \(advice)"
        case .hostHolding(let id, let reason): "job \(id.short) was not resumed: \(reason)"
        }
    }

    public var description: String { message }
}
