import Foundation
import Glibc
import Synchronization

/// SIGINT and SIGTERM as a person expects them while a job runs: the first asks for a stop at
/// the next chunk boundary, the second stops at once.
///
/// Nothing listens until a program creates one: the engine never installs signal handlers on its
/// own. While one listens, the two signals no longer end the process by default; ``cancel()``
/// gives them back their default action. One listens at a time: a newer one replaces an older.
///
/// ```swift
/// let signals = StopSignals(stopping: handle, on: scheduler)
/// let outcome = await scheduler.run(handle) // .paused after one Ctrl-C
/// signals.cancel()
/// ```
///
/// The signals are caught by a `sigaction` handler that only writes the signal's number into a
/// pipe; a thread of its own reads the pipe and calls the stops, so they run even while every
/// worker thread is inside a chunk. Not a `DispatchSource`: on Linux libdispatch reads signals
/// through a `signalfd` while their action is "ignore", and `dispatch_main` parks the main thread
/// in `sigsuspend` with every signal unblocked, so a signal the kernel hands to the main thread
/// is ignored there and never reaches the source (one Ctrl-C in six was lost that way).
public final class StopSignals: Sendable {
    private let registration: Int

    /// Listens for the run of `handle`. The first signal expires its task: the chunks in flight
    /// end (finishing, or giving up where they check for a stop), and ``JobScheduler/run(_:)``
    /// returns `.paused`. The second records the job paused at once with
    /// ``JobScheduler/pauseNow(_:)`` (its last checkpoint stands; the chunks in flight are redone
    /// on resume) and calls `stopNow`, which must end the work in hand: by default it ends the
    /// process at once with status 75 (`EX_TEMPFAIL`), without exit handlers, which would tear
    /// libraries down under the threads still in them.
    public convenience init(stopping handle: JobHandle, on scheduler: JobScheduler,
                            stopNow: @escaping @Sendable () -> Void = { _exit(75) }) {
        self.init(first: { handle.task.expire() }, second: {
            try? scheduler.pauseNow(handle)
            stopNow()
        })
    }

    /// Listens, calling `first` on the first signal and `second` on every later one.
    /// - Parameters:
    ///   - first: should only ask the work to stop (``ContinuedTask/expire()``).
    ///   - second: should record the stop (``JobScheduler/pauseNow(_:)``) and end the work.
    public init(first: @escaping @Sendable () -> Void, second: @escaping @Sendable () -> Void) {
        registration = SignalPipe.shared.listen(first: first, second: second)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalPipeHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Stops listening and gives both signals back their default action (ending the process).
    public func cancel() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        SignalPipe.shared.stopListening(registration)
    }
}

/// The write end of the signal pipe, set once before any handler is installed.
nonisolated(unsafe) private var signalPipeWriter: Int32 = -1

/// The signal handler: one `write`, which is async-signal-safe, and nothing else.
private let signalPipeHandler: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriter, &byte, 1)
    errno = saved
}

/// The pipe from the signal handler to the thread that calls the stops, made once per process.
private final class SignalPipe: Sendable {
    static let shared = SignalPipe()

    private struct Listener {
        var registration: Int
        var count = 0
        var first: @Sendable () -> Void
        var second: @Sendable () -> Void
    }

    private let listener = Mutex<Listener?>(nil)
    private let registrations = Atomic(0)

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe for the stop signals: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not inherited by child processes
        // A full pipe must not block the handler: signals beyond 64 KiB unread add nothing.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriter = ends[1]
        let reader = ends[0]
        Thread.detachNewThread { [self] in readSignals(from: reader) }
    }

    /// Makes `first` and `second` the stops the next signals call, counting from none.
    /// - Returns: a number for ``stopListening(_:)``.
    func listen(first: @escaping @Sendable () -> Void, second: @escaping @Sendable () -> Void) -> Int {
        let registration = registrations.wrappingAdd(1, ordering: .relaxed).newValue
        listener.withLock { $0 = Listener(registration: registration, first: first, second: second) }
        return registration
    }

    /// Forgets the stops of `registration`, unless others replaced them.
    func stopListening(_ registration: Int) {
        listener.withLock { if $0?.registration == registration { $0 = nil } }
    }

    private func readSignals(from descriptor: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return }
            let stop = listener.withLock { listener -> (@Sendable () -> Void)? in
                guard listener != nil else { return nil }
                listener!.count += 1
                return listener!.count == 1 ? listener!.first : listener!.second
            }
            stop?()
        }
    }
}
