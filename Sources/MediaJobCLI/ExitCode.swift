import TaskContract

/// The exit codes of `mediajob`, fixed by the design (sysexits where one fits).
public enum ExitCode {
    public static let completed: Int32 = 0
    public static let failed: Int32 = 1
    public static let usage: Int32 = 64
    public static let invalidInput: Int32 = 65
    public static let rejected: Int32 = 69
    public static let paused: Int32 = 75

    /// The exit code for how a job ended.
    public static func of(_ outcome: TaskOutcome) -> Int32 {
        switch outcome {
        case .completed, .discarded: completed
        case .paused: paused
        case .failed(.invalidInput): invalidInput
        case .failed: failed
        case .rejected(.invalidInput): invalidInput
        case .rejected: rejected
        }
    }
}
