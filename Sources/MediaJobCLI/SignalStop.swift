import Foundation
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a graceful stop (the first) and a hard stop (the second).
///
/// Only the executable's commands install this; library modules never touch signals.
///
/// The signals are caught by a `sigaction` handler that only writes the signal's number into a
/// pipe; a thread of its own reads the pipe and calls the stops, so they run even while every
/// worker thread is inside a chunk. Not a `DispatchSource`: on Linux libdispatch reads signals
/// through a `signalfd` while their action is "ignore", and `dispatch_main` parks the main thread
/// in `sigsuspend` with every signal unblocked, so a signal the kernel hands to the main thread
/// is ignored there and never reaches the source (one Ctrl-C in six was lost that way).
final class SignalStop: Sendable {
    private let registration: Int

    /// Starts listening.
    /// - Parameters:
    ///   - graceful: called on the first signal; it should only ask the job to stop.
    ///   - immediate: called on the second; it should record the stop and exit.
    init(graceful: @escaping @Sendable () -> Void, immediate: @escaping @Sendable () -> Void) {
        registration = SignalPipe.shared.listen(graceful: graceful, immediate: immediate)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalPipeHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Stops listening and restores the default actions.
    func cancel() {
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
        var graceful: @Sendable () -> Void
        var immediate: @Sendable () -> Void
    }

    private let listener = Mutex<Listener?>(nil)
    private let registrations = Atomic(0)

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe for the stop signals: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not inherited by the GPU probe child
        // A full pipe must not block the handler: signals beyond 64 KiB unread add nothing.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriter = ends[1]
        let reader = ends[0]
        Thread.detachNewThread { [self] in readSignals(from: reader) }
    }

    /// Makes `graceful` and `immediate` the stops the next signals call, counting from none.
    /// - Returns: a number for ``stopListening(_:)``.
    func listen(graceful: @escaping @Sendable () -> Void, immediate: @escaping @Sendable () -> Void) -> Int {
        let registration = registrations.wrappingAdd(1, ordering: .relaxed).newValue
        listener.withLock { $0 = Listener(registration: registration, graceful: graceful, immediate: immediate) }
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
                return listener!.count == 1 ? listener!.graceful : listener!.immediate
            }
            stop?()
        }
    }
}
