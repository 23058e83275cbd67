import EngineTestKit
import Foundation
import Glibc
import JobEngine
import TaskContract
import Testing

/// The library's stop helper, each case in a child process of its own: the signals are the
/// process's, and the second one ends it.
@Suite struct StopSignalsTests {
    @Test func theFirstSignalEndsTheJobPausedAtTheNextBoundary() async {
        await #expect(processExitsWith: .success) {
            alarm(120) // the deadline: a signal never heard ends the child by SIGALRM, failing the test
            let folder = TemporaryDirectory()
            let scheduler = try JobScheduler(store: InMemoryJobStore(), lockDirectory: folder.url.appendingPathComponent("locks"),
                                             maxConcurrentJobs: 1)
            let pattern = try TaskIdentifier("com.example.stoptest.scripted.*")
            let job = ScriptedJob { index, context in
                guard index == 1 else { return }
                // The chunk signals its own process, then goes on only once the stop was heard.
                let heard = Gate()
                context.task.expirationHandler = { heard.open() }
                kill(getpid(), SIGINT)
                await heard.wait()
            }
            try scheduler.register(job, permitted: pattern)
            guard case .created(let handle) = try scheduler.submit(
                try TaskRequest(identifier: pattern.unique(), title: "Scripted", subtitle: "starting"),
                spec: ScriptedJob.Spec(units: 4, destination: folder.path("out.txt"))) else { exit(2) }
            let signals = StopSignals(stopping: handle, on: scheduler)
            let outcome = await scheduler.run(handle)
            signals.cancel()
            // Chunk 1 was in hand when the stop came: the run waited for it to return (it gave up
            // its commit, as a chunk that checks for a stop does); chunk 2 never started.
            guard outcome == .paused, job.log.starts == [0: 1, 1: 1], job.log.commits == [0: 1] else { exit(1) }
        }
    }

    @Test func theSecondSignalRecordsTheJobPausedAndStopsWithoutWaitingForTheChunk() async {
        await #expect(processExitsWith: .exitCode(75)) {
            alarm(120) // the deadline: a signal never heard ends the child by SIGALRM, failing the test
            let folder = TemporaryDirectory()
            let store = InMemoryJobStore()
            let scheduler = try JobScheduler(store: store, lockDirectory: folder.url.appendingPathComponent("locks"),
                                             maxConcurrentJobs: 1)
            let pattern = try TaskIdentifier("com.example.stoptest.scripted.*")
            try scheduler.register(ScriptedJob { index, context in
                guard index == 1 else { return }
                let heard = Gate()
                context.task.expirationHandler = { heard.open() }
                kill(getpid(), SIGINT)
                await heard.wait()
                kill(getpid(), SIGINT)
                await Gate().wait() // a chunk that never ends by itself
            }, permitted: pattern)
            guard case .created(let handle) = try scheduler.submit(
                try TaskRequest(identifier: pattern.unique(), title: "Scripted", subtitle: "starting"),
                spec: ScriptedJob.Spec(units: 4, destination: folder.path("out.txt"))) else { exit(2) }
            let signals = StopSignals(stopping: handle, on: scheduler) {
                // Stopped now: the store already says paused, with chunk 0 done and chunk 1 not.
                let paused = (try? store.job(handle.id))?.state == .paused
                let done = ((try? store.chunks(of: handle.id)) ?? []).map(\.isDone)
                _exit(paused && done == [true, false, false, false] ? 75 : 1)
            }
            _ = await scheduler.run(handle)
            signals.cancel()
            exit(3) // the run never ends by itself
        }
    }
}
