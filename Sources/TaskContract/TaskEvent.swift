/// Something an observer of a ``ContinuedTask`` is told, in the order it happened.
public enum TaskEvent: Sendable, Equatable {
    /// Durable progress: the snapshot was committed before this event was sent.
    case progress(ProgressSnapshot)
    /// The title or subtitle changed.
    case titleChanged(title: String, subtitle: TaskSubtitle)
    /// The task was asked to stop; it will stop at the next boundary.
    case expired
    /// The task ended. Always the last event.
    case completed(TaskOutcome)
}
