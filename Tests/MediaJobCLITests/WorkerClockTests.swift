import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// A worker whose machine's clock is an hour ahead (issue 11): leases are timed by the database's
/// clock alone, so nothing changes. It runs under libfaketime (Debian's `faketime`), and the journal
/// entries it writes (stamped by its own clock) show that the shift really applied.
///
/// Not yet tested: a worker an hour behind. Under libfaketime at -1 h the worker hung with its first
/// chunk in flight (threads waiting in epoll, poll and a futex) and was not investigated further;
/// whether that is libfaketime's interposition of timers or a wall-clock wait in the worker is open.
@Suite struct WorkerClockTests {
    /// A worker on time is killed while it holds a chunk: a worker an hour ahead rescues it once the
    /// lease has run out by the database's clock, and takes no chunk of the worker on time beside it
    /// for expired, though by its own clock every lease the other holds ran out an hour ago: the one
    /// rescue is the killed worker's chunk, and every unit ran once.
    @Test func aWorkerAnHourAheadChangesNothing() async throws {
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

            // Both claim before the job is done, so the worker ahead works beside the one on time.
            let onTime = try fixture.startWorker("on-time", store: store, lease: "1")
            let ahead = try fixture.startWorker("ahead", store: store, lease: "1", environment: Self.shifted("+1h"),
                                                launcher: Self.execShell)
            for worker in [onTime, ahead] {
                try await waitUntil("worker \(worker.pid) claims a chunk of job \(id.short)", limit: .seconds(120)) {
                    try reader.journal(of: id).contains { $0.event == .claimed && $0.detail["worker"]?.hasSuffix(":\(worker.pid)") == true }
                }
            }
            try await waitUntil("job \(id.short) is completed by the workers on time and an hour ahead", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            for worker in [onTime, ahead] {
                #expect(worker.waitForStderr(containing: "is taking chunks"))
                worker.send(SIGTERM)
                let ended = worker.finish("stop after SIGTERM")
                #expect(ended.status == 0, "\(ended.stderr)")
            }

            let journal = try reader.journal(of: id)
            // The shift applied: each worker stamped its entries by its own clock, an hour off ours.
            let now = Date()
            for (worker, shift) in [(doomed, 0.0), (ahead, 3600.0), (onTime, 0.0)] {
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
            #expect(check.rescues == 1)
            #expect(check.refusedCommits == 0)
            #expect(journal.contains { entry in
                entry.event == .claimed && entry.detail["chunk"] == "0"
                    && entry.detail["rescued_from"]?.hasSuffix(":\(doomed.pid)") == true
            }, "the killed worker's chunk was rescued")
        }
    }

    /// libfaketime (Debian's `faketime`), preloaded so that the worker's wall clock is shifted by
    /// `offset`. Its monotonic clock is left alone (`FAKETIME_DONT_FAKE_MONOTONIC`), as on a machine whose
    /// clock is merely set wrong. Not through the `faketime` command, which runs the worker as its child:
    /// the test signals the worker itself and finds it in the journal by pid.
    static func shifted(_ offset: String) -> [String: String] {
        ["LD_PRELOAD": "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1", "FAKETIME": offset,
         "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    /// Runs the worker through a shell that `exec`s it (same pid), with libfaketime preloaded in the
    /// shell first. Preloaded straight into `mediajob`, libfaketime's start-up (which sets variables in
    /// the environment of the first process it is loaded in) left Swift's `CommandLine.arguments`
    /// empty here, so `mediajob` saw no command; a process exec'd from a preloaded one is not affected.
    static let execShell = ["/bin/sh", "-c", #"exec "$0" "$@""#]
}
