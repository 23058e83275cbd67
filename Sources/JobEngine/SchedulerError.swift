import TaskContract

/// Why the scheduler refused a request: a reason with what the engine knows of it.
///
/// Messages state what happened in the engine's words; a program turns the reason into advice
/// in its own (the commands and options to use).
public enum SchedulerError: CategorizedError, Equatable, CustomStringConvertible {
    /// The submission was refused; it is recorded as the rejected job with that identity. A
    /// `.fail` resume or restart refused for capacity leaves the job as it was.
    case rejected(JobID, Rejection)
    /// A handler was registered twice for the same kind.
    case alreadyRegistered(String)
    /// A kind's permitted identifier admits identifiers that a registered one (of the named kind)
    /// admits too, so one of the two could never be reached.
    case overlappingPermission(TaskIdentifier, registered: TaskIdentifier, kind: String)
    /// A workspace prefix with characters other than letters, digits, `-` and `_`.
    case invalidWorkspacePrefix(String)
    /// No job has that identity or prefix.
    case noSuchJob(String)
    /// More than one job starts with that prefix.
    case ambiguousJob(String, [JobID])
    /// Another process holds the job: the live one running it (its process id), or one resuming,
    /// restarting or discarding it right now (`nil`).
    case ownedByAnotherProcess(JobID, pid: Int32?)
    /// The job's state does not allow the operation.
    case wrongState(JobID, JobState, JobOperation)
    /// The machine holds all work for now (it is too hot); the job stays as it was.
    case hostHolding(JobID, String)
    /// No kind registered in this process runs the stored job (a worker of another program, or
    /// of an older version, claimed it); the job's kind is named.
    case unregisteredKind(JobID, String)
    /// The job's new settings would publish somewhere else than where it was planned to: the
    /// destination planned, and the new one.
    case replanMovesDestination(JobID, from: String, to: String)

    public var category: FailureCategory {
        switch self {
        case .rejected(_, let rejection) where rejection.reason == .invalidInput: .invalidInput
        case .noSuchJob, .ambiguousJob, .replanMovesDestination: .invalidInput
        default: .resource
        }
    }

    public var message: String {
        switch self {
        case .rejected(_, let rejection): rejection.message
        case .alreadyRegistered(let kind): "a handler for '\(kind)' jobs is already registered"
        case .overlappingPermission(let permitted, let registered, let kind):
            "\(permitted) admits identifiers that \(registered) ('\(kind)' jobs) admits too; "
                + "give each kind a pattern of its own, such as com.example.app.<kind>.*"
        case .invalidWorkspacePrefix(let prefix):
            "'\(prefix)' cannot name workspaces: use letters, digits, - and _"
        case .noSuchJob(let text): "no job matches '\(text)'"
        case .ambiguousJob(let text, let ids):
            "'\(text)' matches \(ids.count) jobs (\(ids.map(\.short).joined(separator: ", "))); give more characters"
        case .ownedByAnotherProcess(let id, let pid?): "job \(id.short) is being run by another process (pid \(pid))"
        case .ownedByAnotherProcess(let id, nil):
            "job \(id.short) is being resumed, restarted or discarded by another process right now"
        case .wrongState(let id, let state, let operation): "job \(id.short) is \(state.rawValue); \(operation.requirement)"
        case .hostHolding(let id, let reason): "job \(id.short) was not resumed: \(reason)"
        case .unregisteredKind(let id, let kind): "job \(id.short) is a '\(kind)' job, which this program does not run"
        case .replanMovesDestination(let id, let from, let to):
            "job \(id.short) was planned to make \(from); its new settings would make \(to) instead"
        }
    }

    public var description: String { message }
}
