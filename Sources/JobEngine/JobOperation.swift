/// What can be done to a job that exists, and in which states.
public enum JobOperation: String, Sendable, Equatable, CaseIterable {
    case resume, restart, discard, cancel

    /// Whether the operation applies to a job in `state`.
    func allows(_ state: JobState) -> Bool {
        switch self {
        case .resume: state.isResumable
        case .restart: state != .completed && state != .rejected
        case .discard: state != .completed && state != .discarded
        case .cancel: state.isLive
        }
    }

    /// The states it needs, in words.
    var requirement: String {
        switch self {
        case .resume: "only paused, interrupted or failed jobs resume"
        case .restart: "completed and rejected jobs cannot restart; submit the work again"
        case .discard: "there is nothing left to discard"
        case .cancel: "only queued or running jobs can be cancelled"
        }
    }
}
