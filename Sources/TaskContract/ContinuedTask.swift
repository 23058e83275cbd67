import Synchronization

/// The task a running job is handed, modelled on `BGContinuedProcessingTask`.
///
/// It carries the job's words (``title``, ``subtitle``), its durable progress, the stop signal
/// (``expire()`` runs the ``expirationHandler`` once; the handler only signals, it never works)
/// and the single completion.
///
/// Only the engine creates a task, publishes its progress (after the store holds it) and completes
/// it: a job kind ends its job by what its chunks and its finalisation return or throw, never by
/// completing the task itself, and an embedder observes the end through ``outcome``, ``observe(_:)``
/// or ``events()``.
public final class ContinuedTask: Sendable {
    /// The task's identifier.
    public let identifier: TaskIdentifier

    private struct State {
        var title: String
        var subtitle: TaskSubtitle
        var progress: ProgressSnapshot
        var isExpired = false
        var expirationHandler: (@Sendable () -> Void)?
        var outcome: TaskOutcome?
        var observers: [@Sendable (TaskEvent) -> Void] = []
    }

    private let state: Mutex<State>

    /// Creates the task for a request, starting from `progress` (stored progress when resuming).
    package init(request: TaskRequest, progress: ProgressSnapshot) {
        identifier = request.identifier
        state = Mutex(State(title: request.title, subtitle: request.subtitle, progress: progress))
    }

    /// The current title.
    public var title: String { state.withLock { $0.title } }

    /// The current subtitle.
    public var subtitle: TaskSubtitle { state.withLock { $0.subtitle } }

    /// The last published, durable progress.
    public var progress: ProgressSnapshot { state.withLock { $0.progress } }

    /// Whether a stop was asked for.
    public var isExpired: Bool { state.withLock { $0.isExpired } }

    /// How the task ended, once it has.
    public var outcome: TaskOutcome? { state.withLock { $0.outcome } }

    /// Runs when the task is asked to stop. It should only signal the work to stop at its next
    /// boundary. Set before work starts; a handler set after expiry runs at once.
    public var expirationHandler: (@Sendable () -> Void)? {
        get { state.withLock { $0.expirationHandler } }
        set {
            let runNow = state.withLock { state -> Bool in
                state.expirationHandler = newValue
                return state.isExpired
            }
            if runNow { newValue?() }
        }
    }

    /// Changes the words shown for the task.
    public func updateTitle(_ title: String, subtitle: TaskSubtitle) {
        state.withLock {
            $0.title = title
            $0.subtitle = subtitle
        }
        send(.titleChanged(title: title, subtitle: subtitle))
    }

    /// Asks the task to stop: marks it expired and runs the expiration handler, once.
    public func expire() {
        let handler = state.withLock { state -> (@Sendable () -> Void)?? in
            guard !state.isExpired, state.outcome == nil else { return nil }
            state.isExpired = true
            return .some(state.expirationHandler)
        }
        guard let handler else { return }
        handler?()
        send(.expired)
    }

    /// Publishes progress that has already been made durable. The fraction never goes backwards.
    package func publish(_ snapshot: ProgressSnapshot) {
        var snapshot = snapshot
        state.withLock { state in
            if snapshot.bar.fraction < state.progress.bar.fraction { snapshot.bar = state.progress.bar }
            state.progress = snapshot
        }
        send(.progress(snapshot))
    }

    /// Ends the task: the engine calls it exactly once, on every path, with what the job's run
    /// came to; a second call is a programmer error that stops the process.
    ///
    /// Here `paused` and `failed` are distinct outcomes where Apple's API has only
    /// `success: false`; a stop on purpose must end as `.paused`.
    package func setTaskCompleted(_ outcome: TaskOutcome) {
        let first = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            state.outcome = outcome
            return true
        }
        precondition(first, "setTaskCompleted called twice for \(identifier)")
        send(.completed(outcome))
    }

    /// Calls `observer` with every later event, on the thread that caused it.
    public func observe(_ observer: @escaping @Sendable (TaskEvent) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// The task's later events as an asynchronous sequence that ends after completion.
    public func events() -> AsyncStream<TaskEvent> {
        AsyncStream { continuation in
            observe { event in
                continuation.yield(event)
                if case .completed = event { continuation.finish() }
            }
        }
    }

    /// Sends `event` to every observer; nothing follows ``TaskEvent/completed(_:)``.
    private func send(_ event: TaskEvent) {
        let observers = state.withLock { state -> [@Sendable (TaskEvent) -> Void] in
            if case .completed = event { return state.observers }
            return state.outcome == nil ? state.observers : []
        }
        for observer in observers { observer(event) }
    }
}
