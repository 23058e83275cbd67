import EngineTestKit
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

@Suite struct StopAndFailureTests {
    @Test func aStopEndsTheJobPausedAndResumeFinishesItWithoutRedoingCommittedChunks() async throws {
        let stops = Mutex(1)
        let fixture = try EngineFixture { index, context in
            if index == 2, stops.withLock({ count in defer { count -= 1 }; return count > 0 }) { context.task.expire() }
        }
        let first = try fixture.submit(fixture.spec(units: 6))
        #expect(await fixture.scheduler.run(first) == .paused)
        #expect(try fixture.state(first.id) == .paused)
        #expect(fixture.result() == nil, "nothing is published before the job completes")
        let doneBefore = try fixture.store.chunks(of: first.id).filter(\.isDone).map(\.index)
        #expect(doneBefore == [0, 1])
        #expect(try fixture.store.journal(of: first.id).contains { $0.event == .expired })

        let resumed = try fixture.scheduler.resume(first.id)
        #expect(resumed.task.progress.fraction == (try fixture.store.job(first.id))?.progress.fraction)
        #expect(await fixture.scheduler.run(resumed) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 6))
        #expect(fixture.job.log.commits == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1], "every chunk committed exactly once")
        #expect(fixture.job.log.starts[2] == 2, "only the chunk in flight at the stop ran again")
    }

    @Test func aFailingChunkFailsTheJobKeepsFinishedChunksAndResumeRetriesIt() async throws {
        let failures = Mutex(1)
        let fixture = try EngineFixture { index, _ in
            if index == 3, failures.withLock({ count in defer { count -= 1 }; return count > 0 }) {
                throw FileSystemError("write", path: "/media/disk", code: EIO)
            }
        }
        let handle = try fixture.submit(fixture.spec(units: 5))
        #expect(await fixture.scheduler.run(handle) == .failed(.io))
        let job = try #require(try fixture.store.job(handle.id))
        #expect(job.state == .failed)
        #expect(job.failure == .io)
        #expect(job.message?.contains("/media/disk") == true)
        #expect(try fixture.store.chunks(of: handle.id).filter(\.isDone).map(\.index) == [0, 1, 2])

        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 5))
    }

    @Test func aCheckpointThatCannotBeWrittenNeverCountsItsChunkAsDone() async throws {
        let fixture = try EngineFixture()
        fixture.store.failCheckpoint(after: 1)
        let handle = try fixture.submit(fixture.spec(units: 4))
        #expect(await fixture.scheduler.run(handle) == .failed(.noSpace))
        #expect(try fixture.store.chunks(of: handle.id).filter(\.isDone).map(\.index) == [0])
        #expect(try fixture.store.job(handle.id)?.progress.unitsDone == 1)
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4))
    }

    @Test func aCancelRequestThroughTheStoreIsSeenAtTheNextBoundary() async throws {
        let started = Gate(), expired = Gate(), release = Gate()
        defer { release.open() }
        let fixture = try EngineFixture { index, _ in
            if index == 1 {
                started.open()
                await release.wait()
            }
        }
        let handle = try fixture.submit(fixture.spec(units: 4))
        handle.task.observe { if case .expired = $0 { expired.open() } }
        let scheduler = fixture.scheduler
        async let outcome = scheduler.run(handle)
        try await started.wait(until: "unit 1 started")
        try scheduler.cancel(handle.id)
        try await expired.wait(until: "the cancel request expired the task")
        release.open()
        #expect(await outcome == .paused)
        #expect(try fixture.store.isCancelRequested(handle.id) == false, "the request is cleared once acted on")
    }
}

@Suite struct ItemFailureTests {
    @Test func badItemsDoNotStopTheOthersAndTheJobListsThemThenResumeRetriesOnlyThem() async throws {
        let broken = Mutex<Set<Int>>([1, 3])
        let fixture = try EngineFixture { index, _ in
            if broken.withLock({ $0.contains(index) }) {
                throw ItemFailure(item: "item \(index)", reason: "is corrupt")
            }
        }
        let handle = try fixture.submit(fixture.spec(units: 5))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        let job = try #require(try fixture.store.job(handle.id))
        #expect(job.message?.contains("2 items could not be processed: item 1: is corrupt; item 3: is corrupt") == true)
        #expect(try fixture.store.chunks(of: handle.id).filter(\.isDone).map(\.index) == [0, 2, 4])
        #expect(fixture.result() == nil)

        broken.withLock { $0 = [] }
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(fixture.job.log.starts == [0: 1, 1: 2, 2: 1, 3: 2, 4: 1])
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 5))
    }
}
