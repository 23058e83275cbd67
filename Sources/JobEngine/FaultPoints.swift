import Foundation
import Glibc
import Synchronization

/// Named places in the engine's durable steps where a crash test can make this process die, or
/// make the step's system call fail, to prove that a crash or an I/O error there loses nothing;
/// and places where a stop test can hold the work until it lets it go.
///
/// Off until an executable arms them with ``arm(_:)``, as the `mediajob` program does from its
/// `MEDIAJOB_FAULT` variable for its own crash and stop tests; the library never reads the
/// environment for them, so a program that embeds the engine is never killed by a stray variable.
///
/// The text `POINT:HIT[:ACTION]` arms one point: the HIT-th pass (counted from 1, across all
/// threads) of POINT does ACTION, and every other pass does nothing. ACTION is `kill` (the
/// default): the step is done, then the process raises `SIGKILL` at once; an errno name (`EIO`,
/// `ENOSPC`, `EDQUOT`, `EMFILE`, `EROFS`): the step is not done and fails with that error, as if
/// its system call had returned it; or `hold:FIFO`: the thread opens the named pipe FIFO for
/// reading (which blocks until the test opens it for writing, so the test knows the work is held)
/// and reads it to its end (until the test closes it, which releases the work), then does the
/// step. Several points are armed by joining such texts with commas (`plan:1:hold:A,chunk:1:hold:B`),
/// each counting its own passes; a test that holds a job at two places in turn uses two pipes.
package enum FaultPoints {
    /// A durable step that can be made to fail or to end the process.
    package enum Point: String, Sendable, CaseIterable {
        /// A chunk output's bytes were written to its temporary name (``Workspace/commit(_:write:)``).
        case commitWrite = "commit.write"
        /// A file or folder was flushed with `fsync` (``DurableFiles/sync(_:)``).
        case fsync
        /// A temporary name was renamed to its final one (``DurableFiles/rename(_:to:replacing:)``).
        case rename
        /// Inside the checkpoint transaction, after the chunk's row says done and before `COMMIT`.
        case checkpoint
        /// The job kind assembled and validated the artifact in the workspace; nothing is published.
        case finalize
        /// The artifact was renamed onto the destination; the store does not know yet.
        case publish
        /// The job kind is about to plan a submitted job; nothing is recorded yet.
        case plan
        /// A chunk is about to start its work (after the runner's check for a stop).
        case chunk
        /// A worker's claim was answered: the chunk's lease is held, and the chunk is not in flight
        /// yet (its job is read next).
        case leaseClaimed = "lease.claimed"
        /// A worker's chunk (or package stage) is done under a lease still held: its commit is
        /// handed to the worker's committer next (the slot claims nothing more until then).
        case leaseCommit = "lease.commit"
        /// A worker's committer is about to land a commit handed over (one pass per commit of its
        /// batch): the slot that handed it over may be running its next chunk, and the chunk's
        /// heartbeat renews its lease until the commit landed.
        case leaseCommitBatch = "lease.commit-batch"
        /// A video segment's encoder has its memory from the encoder budget; its decoder and
        /// encoder open next.
        case encoder
        /// A chunk met an input only another program can judge (`mediajob-photo` meeting a
        /// video); its job pauses next, to be handed over to that program.
        case handOver = "hand-over"
    }

    /// What an armed point does.
    enum Action: Equatable {
        case kill
        case fail(Int32)
        /// Wait for the test to write to and close the named pipe at this path.
        case hold(String)
    }

    /// An armed point's hit and action, and how many passes it has seen.
    private struct Armed {
        var hit: Int
        var action: Action
        var passes = 0
    }

    /// The armed points; empty until ``arm(_:)`` is called.
    private static let armed = Mutex<[Point: Armed]>([:])

    private static let errnoNames: [String: Int32] = [
        "EIO": EIO, "ENOSPC": ENOSPC, "EDQUOT": EDQUOT, "EMFILE": EMFILE, "EROFS": EROFS,
    ]

    /// Arms the points that `text` (`POINT:HIT[:ACTION]`, several joined with commas) names,
    /// counting passes from now; `nil`, empty or malformed text (any part of it) arms nothing.
    /// Only an executable calls this, once, before any work.
    package static func arm(_ text: String?) {
        let faults = (text ?? "").split(separator: ",", omittingEmptySubsequences: false).map { parse(String($0)) }
        armed.withLock { armed in
            armed = [:]
            guard faults.allSatisfy({ $0 != nil }) else { return }
            for case let fault? in faults { armed[fault.point] = Armed(hit: fault.hit, action: fault.action) }
        }
    }

    /// Parses `POINT:HIT[:ACTION]`; `nil` when empty or malformed.
    static func parse(_ text: String) -> (point: Point, hit: Int, action: Action)? {
        let fields = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 2, let point = Point(rawValue: fields[0]), let hit = Int(fields[1]), hit >= 1 else {
            return nil
        }
        if fields.count == 4 {
            return fields[2] == "hold" && fields[3].hasPrefix("/") ? (point, hit, .hold(fields[3])) : nil
        }
        let name = fields.count == 3 ? fields[2] : "kill"
        if name == "kill" { return (point, hit, .kill) }
        guard let code = errnoNames[name] else { return nil }
        return (point, hit, .fail(code))
    }

    /// Runs the step `body` at `point`: normally just runs it; at the armed hit, either fails it
    /// with the armed error (as ``FileSystemError`` for `operation` on `path`) without running it,
    /// runs it and then ends the process with `SIGKILL`, or runs it once the test releases it.
    /// - Throws: what `body` throws, or the injected ``FileSystemError``.
    package static func step<T>(_ point: Point, operation: String, path: String, _ body: () throws -> T) throws -> T {
        let action = armed.withLock { armed -> Action? in
            guard var fault = armed[point] else { return nil }
            fault.passes += 1
            armed[point] = fault
            return fault.passes == fault.hit ? fault.action : nil
        }
        guard let action else { return try body() }
        switch action {
        case .fail(let code):
            throw FileSystemError(operation, path: path, code: code)
        case .kill:
            let result = try body()
            raise(SIGKILL)
            return result
        case .hold(let fifo):
            waitForRelease(fifo)
            return try body()
        }
    }

    /// Blocks this thread until a writer has opened `fifo` and closed it again. A pipe that cannot
    /// be opened holds nothing: the test that armed it then fails on its own wait.
    private static func waitForRelease(_ fifo: String) {
        let descriptor = open(fifo, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return
        }
    }
}
