import Glibc
import JobEngine
import MediaJobCLI
import Synchronization

/// What Ctrl-C (SIGINT) and SIGTERM do to the job a command runs in the foreground, from before
/// it is planned until it ends.
///
/// The first signal asks the job to stop at its next chunk boundary; while the job is still being
/// planned it is remembered and the job stops as soon as it is recorded (it then ends paused,
/// before any chunk ran). The second signal ends the process at once: the job is marked paused
/// and its last checkpoint stands; while planning, nothing was recorded.
package final class SessionStop {
    private let target: StopTarget
    private var signals: StopSignals?

    /// Starts listening for the stop signals.
    package init(context: CommandContext, scheduler: JobScheduler) {
        let target = StopTarget(context: context, scheduler: scheduler)
        self.target = target
        signals = StopSignals(first: { target.stopAtBoundary() }, second: { target.stopNow() })
    }

    /// Hands over the job once it is recorded; a stop asked for meanwhile reaches it now.
    /// - Parameter releasing: what the second signal does before it ends the process, besides
    ///   pausing the job (a process working under leases gives its chunks back).
    package func attach(_ handle: JobHandle, reporter: ProgressReporter, releasing: (@Sendable () -> Void)? = nil) {
        target.attach(handle, reporter: reporter, releasing: releasing)
    }

    /// Whether a stop signal asked the job to stop (a pause the person wants kept).
    package var wasAsked: Bool { target.stopAsked }

    /// Stops listening and restores the signals' default actions.
    package func cancel() {
        signals?.cancel()
        signals = nil
    }
}

/// What the stop signals act on: nothing yet while the job is planned, then the job.
private final class StopTarget: Sendable {
    private struct State {
        var job: (handle: JobHandle, reporter: ProgressReporter, releasing: (@Sendable () -> Void)?)?
        var stopAsked = false
    }

    private let state = Mutex(State())
    private let context: CommandContext
    private let scheduler: JobScheduler

    init(context: CommandContext, scheduler: JobScheduler) {
        self.context = context
        self.scheduler = scheduler
    }

    /// Whether the first signal came.
    var stopAsked: Bool { state.withLock { $0.stopAsked } }

    func attach(_ handle: JobHandle, reporter: ProgressReporter, releasing: (@Sendable () -> Void)?) {
        let stopAsked = state.withLock { state in
            state.job = (handle, reporter, releasing)
            return state.stopAsked
        }
        if stopAsked { handle.task.expire() }
    }

    func stopAtBoundary() {
        let job = state.withLock { state in
            state.stopAsked = true
            return state.job
        }
        guard let job else {
            context.console.err("Stopping once the job is planned; press Ctrl-C again to stop now.")
            return
        }
        job.handle.task.expire()
        job.reporter.finishLine()
        context.console.err("Stopping at the next chunk boundary; press Ctrl-C again to stop now.")
    }

    func stopNow() -> Never {
        let console = context.console
        guard let (handle, reporter, releasing) = state.withLock({ $0.job }) else {
            console.err("Stopped while planning; no job was recorded. Run the same command again to start it.")
            Self.end()
        }
        releasing?()
        try? scheduler.pauseNow(handle)
        reporter.finishLine()
        if context.json { console.json(["event": "paused", "job_id": handle.id.rawValue, "outcome": "paused"]) }
        console.err("Stopped. The last checkpoint stands. Resume with: "
                    + "mediajob resume \(handle.id.short)\(context.stateDirectoryArgument)")
        Self.end()
    }

    /// Ends the process with the paused exit code without running exit handlers or destructors:
    /// other threads are still inside library calls that those would tear down under them, and
    /// everything this process owes is already durable (the store) or written (the console).
    private static func end() -> Never {
        _exit(ExitCode.paused)
    }
}
