import EngineTestKit
import Foundation
import JobEngine
import Synchronization
import Testing

/// Resuming with part of a job planned again (``JobScheduler/resume(_:replanning:redoing:strategy:)``):
/// done chunks the caller keeps stay done and never run again, the rest of the new plan runs, and
/// unchanged settings plan nothing.
@Suite struct ReplanTests {
    @Test func keptChunksStayDoneAndTheNewPlanRunsTheRest() async throws {
        let broken = Mutex<Set<Int>>([2])
        let fixture = try EngineFixture { index, context in
            guard broken.withLock({ $0.contains(index) }) else { return }
            try context.guarding("item \(index)", skipBad: false) { throw ItemFailure(item: "item \(index)", reason: "is corrupt") }
        }
        let handle = try fixture.submit(fixture.spec(units: 3))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        #expect(try fixture.store.chunks(of: handle.id).map(\.isDone) == [true, true, false])

        broken.withLock { $0 = [] }
        let resumed = try fixture.scheduler.resume(handle.id, replanning: fixture.spec(units: 4),
                                                   redoing: { $0.key == "chunk-1" })
        #expect(resumed.record.progress.unitsDone == 1 && resumed.record.progress.unitsTotal == 4)
        #expect(try fixture.store.badItems(of: handle.id).isEmpty)
        #expect(await fixture.scheduler.run(resumed) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4))
        #expect(fixture.job.log.starts == [0: 1, 1: 2, 2: 2, 3: 1], "chunk 0 was kept; 1 was redone as asked")
        #expect(try fixture.store.chunks(of: handle.id).map(\.plan.key) == ["chunk-0", "chunk-1", "chunk-2", "chunk-3"])
    }

    @Test func unchangedSettingsResumeAsPlanned() async throws {
        let broken = Mutex<Set<Int>>([1])
        let fixture = try EngineFixture { index, context in
            guard broken.withLock({ $0.contains(index) }) else { return }
            try context.guarding("item \(index)", skipBad: false) { throw ItemFailure(item: "item \(index)", reason: "is corrupt") }
        }
        let handle = try fixture.submit(fixture.spec(units: 3))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        broken.withLock { $0 = [] }
        let resumed = try fixture.scheduler.resume(handle.id, replanning: fixture.spec(units: 3), redoing: { _ in true })
        #expect(await fixture.scheduler.run(resumed) == .completed)
        #expect(fixture.job.log.starts == [0: 1, 1: 2, 2: 1], "nothing done was redone")
        #expect(try !fixture.store.journal(of: handle.id).contains { $0.detail["replan"] == "true" })
    }

    @Test func aFailResumeRefusedForCapacityLeavesTheJobUnplanned() async throws {
        let started = Gate(), release = Gate()
        defer { release.open() }
        let fixture = try EngineFixture(maxJobs: 1) { index, context in
            if context.workspace.directory.path.contains("busy") {
                started.open()
                await release.wait()
            } else if index == 1 {
                throw ItemFailure(item: "item 1", reason: "is corrupt")
            }
        }
        let handle = try fixture.submit(fixture.spec(units: 2))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        let busy = try fixture.submit(fixture.spec(units: 1, name: "busy.txt"))
        async let running = fixture.scheduler.run(busy)
        try await started.wait(until: "the other job's unit started")

        let error = try #require(throws: SchedulerError.self) {
            try fixture.scheduler.resume(handle.id, replanning: fixture.spec(units: 3), redoing: { _ in false }, strategy: .fail)
        }
        #expect(error == .rejected(handle.id, .noCapacity(slots: 1, jobStays: .failed)))
        #expect(try fixture.store.chunks(of: handle.id).count == 2, "the new plan was not stored")
        #expect(try fixture.store.badItems(of: handle.id).map(\.item) == ["item 1"])
        release.open()
        #expect(await running == .completed)
    }

    @Test func newSettingsThatPublishElsewhereAreRefusedAndTheJobStaysAsItWas() async throws {
        let fixture = try EngineFixture { index, _ in if index == 1 { throw ItemFailure(item: "item 1", reason: "is corrupt") } }
        let handle = try fixture.submit(fixture.spec(units: 2))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        #expect(throws: SchedulerError.replanMovesDestination(handle.id, from: fixture.folder.path("out.txt"),
                                                              to: fixture.folder.path("other.txt"))) {
            try fixture.scheduler.resume(handle.id, replanning: fixture.spec(units: 2, name: "other.txt"), redoing: { _ in false })
        }
        #expect(try fixture.state(handle.id) == .failed)
        #expect(try fixture.store.chunks(of: handle.id).map(\.isDone) == [true, false])
    }
}
