import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a graceful stop (the first) and a hard stop (the second).
///
/// Only the executable's commands install this; library modules never touch signals.
final class SignalStop {
    private let sources: [any DispatchSourceSignal]

    /// Starts listening.
    /// - Parameters:
    ///   - graceful: called on the first signal; it should only ask the job to stop.
    ///   - immediate: called on the second; it should record the stop and exit.
    init(graceful: @escaping @Sendable () -> Void, immediate: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        let count = SignalCount()
        // A queue of its own: the global queue's threads are the ones chunks run on, and while
        // every one of them is busy in a long library call a signal would wait for a chunk to end.
        let queue = DispatchQueue(label: "mediajob.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if count.next() == 1 { graceful() } else { immediate() }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Stops listening and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// How many stop signals have arrived.
private final class SignalCount: Sendable {
    private let value = Mutex(0)

    /// Counts one more and returns the new count.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
