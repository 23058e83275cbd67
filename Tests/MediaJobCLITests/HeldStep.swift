import EngineTestKit
import MediaTestKit
import Foundation
import Glibc
import Testing

/// A step of the `mediajob` binary held until the test lets it go: the `hold` action of the
/// engine's fault points (`MEDIAJOB_FAULT=POINT:HIT:hold:FIFO`) over a named pipe this makes.
///
/// The held thread opens the pipe for reading and reads it to its end. The test's opening it for
/// writing succeeds only once the process is there (so the test knows the step is held), and its
/// closing it releases the step. No timing is involved.
final class HeldStep {
    private let fifo: String
    private var writer: Int32 = -1

    /// Makes the pipe in `folder`.
    init(in folder: TemporaryDirectory, name: String = "hold.fifo") throws {
        fifo = folder.path(name)
        guard mkfifo(fifo, 0o600) == 0 else {
            throw MediaFixtures.FixtureError(message: "mkfifo \(fifo): \(String(cString: strerror(errno)))")
        }
    }

    /// The environment that arms the `hit`-th pass of `point` (`plan`, `chunk`) to hold here.
    func environment(point: String, hit: Int = 1) -> [String: String] {
        ["MEDIAJOB_FAULT": fault(point: point, hit: hit)]
    }

    /// The `MEDIAJOB_FAULT` text that arms the `hit`-th pass of `point` to hold here; a test that
    /// holds at two points joins two steps' texts with a comma.
    func fault(point: String, hit: Int = 1) -> String {
        "\(point):\(hit):hold:\(fifo)"
    }

    /// Waits until `process` is held at the step; fails the test naming the step if the process
    /// ends first or ``CLIProcess/deadline`` passes.
    /// - Returns: whether it is held.
    @discardableResult
    func waitUntil(_ process: CLIProcess, isHeldAt step: String) -> Bool {
        process.waitUntil("being held at \(step)") {
            // Non-blocking: fails with ENXIO until the held thread has opened the pipe for reading.
            writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            return writer >= 0
        }
    }

    /// Whether the held process still has the pipe open: a pipe's writing end reports an error
    /// when no reader is left, so this is false once the process has ended.
    var isStillHeld: Bool {
        var entry = pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)
        return writer >= 0 && poll(&entry, 1, 0) >= 0 && entry.revents & Int16(POLLERR) == 0
    }

    /// Lets the held step go on.
    func release() {
        if writer >= 0 { close(writer) }
        writer = -1
    }

    deinit { release() }
}
