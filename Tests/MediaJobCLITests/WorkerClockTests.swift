import EngineTestKit
import Foundation
import JobEngine
import MediaTestKit
import PostgresJobStore
import PostgresTestKit
import Testing

/// A worker whose machine's clock is an hour ahead or an hour behind (issue 11): leases are timed by
/// the database's clock and the worker's waits by its monotonic clock, so nothing changes. It runs
/// under libfaketime (Debian's `faketime`), and the journal entries it writes (stamped by its own
/// clock) show that the shift really applied.
@Suite struct WorkerClockTests {
    /// A worker on time is killed while it holds a chunk: a worker an hour off rescues it once the
    /// lease has run out by the database's clock, and takes no chunk of the worker on time beside it
    /// for expired, though by its own clock every lease the other holds ran out an hour ago (or
    /// lasts an hour more): the one rescue is the killed worker's chunk, and every unit ran once.
    @Test(arguments: [3600.0, -3600.0])
    func aWorkerAnHourOffChangesNothing(shift: Double) async throws {
        let units = 100
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let id = try submitDetached(units: units, unitMilliseconds: 30, in: fixture, store: store)
            let reader = try PostgresJobStore(store)

            let hold = try HeldStep(in: fixture.folder, name: "doomed.fifo")
            let doomed = try fixture.startWorker("doomed", store: store, lease: "1", environment: hold.environment(point: "chunk", hit: 1))
            try #require(hold.waitUntil(doomed, isHeldAt: "the first chunk of the worker on time"))
            doomed.send(SIGKILL)
            #expect(doomed.finish("die of SIGKILL").status != 0)
            hold.release()

            // Both claim before the job is done, so the worker off works beside the one on time.
            let onTime = try fixture.startWorker("on-time", store: store, lease: "1")
            let off = try fixture.startWorker("off", store: store, lease: "1",
                                              environment: try Self.shifted(shift > 0 ? "+1h" : "-1h", in: fixture.folder),
                                              launcher: Self.execShell)
            for worker in [onTime, off] {
                try await waitUntil("worker \(worker.pid) claims a chunk of job \(id.short)", limit: .seconds(120)) {
                    try reader.journal(of: id).contains { $0.event == .claimed && $0.detail["worker"]?.hasSuffix(":\(worker.pid)") == true }
                }
            }
            try await waitUntil("job \(id.short) is completed by the workers on time and \(shift) s off", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            for worker in [onTime, off] {
                #expect(worker.waitForStderr(containing: "is taking chunks"))
                worker.send(SIGTERM)
                let ended = worker.finish("stop after SIGTERM")
                #expect(ended.status == 0, "\(ended.stderr)")
            }

            let journal = try reader.journal(of: id)
            // The shift applied: each worker stamped its entries by its own clock, an hour off ours.
            let now = Date()
            for (worker, shift) in [(doomed, 0.0), (off, shift), (onTime, 0.0)] {
                let stamps = journal.filter { $0.detail["worker"]?.hasSuffix(":\(worker.pid)") == true }.map(\.at)
                #expect(!stamps.isEmpty, "worker \(worker.pid) claimed chunks")
                #expect(stamps.allSatisfy { abs($0.timeIntervalSince(now) - shift) < 600 },
                        "worker \(worker.pid) ran \(shift) s off: its entries are stamped \(stamps)")
            }
            let result = try fixture.result()
            #expect(result.committed == Array(0..<units))
            #expect(result.executions == Dictionary(uniqueKeysWithValues: (0..<units).map { (String($0), 1) }),
                    "every unit ran exactly once: no live worker's chunk was taken for expired")
            let check = try leaseCheck(journal, of: id, in: reader)
            #expect(check.violations == [])
            #expect(check.overruns == [], "judged on the database's clock, which no worker's shift moves")
            #expect(check.rescues == 1)
            #expect(check.refusedCommits == 0)
            #expect(journal.contains { entry in
                entry.event == .claimed && entry.detail["chunk"] == "1"
                    && entry.detail["rescued_from"]?.hasSuffix(":\(doomed.pid)") == true
            }, "the killed worker's chunk, unit 1 (the longer units are claimed first), was rescued")
        }
    }

    /// libfaketime (Debian's `faketime`), preloaded so that the worker's wall clock is shifted by
    /// `offset`. Its monotonic clock is left alone (`FAKETIME_DONT_FAKE_MONOTONIC`), as on a machine whose
    /// clock is merely set wrong, and so are its timers (``timerShim(in:)``, preloaded first). Not through
    /// the `faketime` command, which runs the worker as its child: the test signals the worker itself and
    /// finds it in the journal by pid.
    static func shifted(_ offset: String, in folder: TemporaryDirectory) throws -> [String: String] {
        ["LD_PRELOAD": "\(try timerShim(in: folder)) /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
         "FAKETIME": offset, "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    /// A library that hands `timerfd_settime` to the kernel untouched, built here with `cc`.
    ///
    /// libfaketime 0.9.10 moves every timer armed for an absolute time by its offset, timers on the
    /// monotonic clocks too, `FAKETIME_DONT_FAKE_MONOTONIC` or not; libdispatch arms each `Task.sleep`
    /// so. An hour behind, every sleep lasted an hour more: the worker hung in its first chunk, its
    /// timerfds (CLOCK_MONOTONIC and CLOCK_BOOTTIME, `/proc/PID/fdinfo`) armed 3,560 s ahead. An hour
    /// ahead they fired at once. A machine whose clock is set wrong moves no such timer.
    static func timerShim(in folder: TemporaryDirectory) throws -> String {
        let source = folder.path("timerfd-shim.c"), library = folder.path("timerfd-shim.so")
        try Data("""
            #include <sys/syscall.h>
            #include <sys/timerfd.h>
            #include <unistd.h>
            int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
                return (int)syscall(SYS_timerfd_settime, fd, flags, new_value, old_value);
            }

            """.utf8).write(to: URL(fileURLWithPath: source))
        _ = try MediaFixtures.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source])
        return library
    }

    /// Runs the worker through a shell that `exec`s it (same pid), with libfaketime preloaded in the
    /// shell first. Preloaded straight into `mediajob`, libfaketime's start-up (which sets variables in
    /// the environment of the first process it is loaded in) left Swift's `CommandLine.arguments`
    /// empty here, so `mediajob` saw no command; a process exec'd from a preloaded one is not affected.
    static let execShell = ["/bin/sh", "-c", #"exec "$0" "$@""#]
}
