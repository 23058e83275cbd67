import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

@Suite struct RecoveryTests {
    @Test func aJobWhoseOwnerVanishedShowsAsInterruptedAndResumes() async throws {
        let fixture = try EngineFixture()
        var handle: JobHandle? = try fixture.submit(fixture.spec())
        let id = try #require(handle?.id)
        #expect(try fixture.state(id) == .queued)
        handle = nil // the owner goes away: its lock is released
        #expect(try fixture.state(id) == .interrupted)
        #expect(try fixture.store.journal(of: id).contains { $0.event == .interrupted })
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(id)) == .completed)
    }

    @Test func aJobOwnedByAnotherHolderCannotBeResumedDiscardedOrRestarted() throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec())
        #expect(throws: SchedulerError.ownedByAnotherProcess(handle.id, pid: getpid())) { try fixture.scheduler.resume(handle.id) }
        #expect(throws: SchedulerError.self) { try fixture.scheduler.discard(handle.id) }
        #expect(throws: SchedulerError.self) { try fixture.scheduler.restart(handle.id) }
    }

    @Test func aCompletedJobCannotBeResumed() async throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec())
        _ = await fixture.scheduler.run(handle)
        #expect(throws: SchedulerError.wrongState(handle.id, .completed, .resume)) {
            try fixture.scheduler.resume(handle.id)
        }
    }

    @Test func restartThrowsPartialWorkAwayAndRunsEveryChunkAgain() async throws {
        let fixture = try EngineFixture { index, context in
            if index == 2, context.task.title == "Scripted" { context.task.expire() }
        }
        let handle = try fixture.submit(fixture.spec(units: 4))
        #expect(await fixture.scheduler.run(handle) == .paused)
        let restarted = try fixture.scheduler.restart(handle.id)
        #expect(restarted.task.progress.fraction == 0)
        restarted.task.updateTitle("Scripted again", subtitle: "restarted")
        #expect(await fixture.scheduler.run(restarted) == .completed)
        #expect(fixture.job.log.commits[0] == 2, "chunk 0 ran once before and once after the restart")
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4))
    }

    @Test func discardRemovesPartialWorkAndCannotBeRepeated() async throws {
        let fixture = try EngineFixture { index, context in
            if index == 1 { context.task.expire() }
        }
        let handle = try fixture.submit(fixture.spec())
        #expect(await fixture.scheduler.run(handle) == .paused)
        let workspace = handle.record.workspace
        #expect(FileManager.default.fileExists(atPath: workspace))
        try fixture.scheduler.discard(handle.id)
        #expect(!FileManager.default.fileExists(atPath: workspace))
        #expect(try fixture.state(handle.id) == .discarded)
        #expect(throws: SchedulerError.self) { try fixture.scheduler.discard(handle.id) }
    }

    @Test func workspacesLeftByFinishedJobsAreCleanedAndResumableOnesKept() async throws {
        let fixture = try EngineFixture { index, context in
            if index == 1, context.task.title == "stop" { context.task.expire() }
        }
        let done = try fixture.submit(fixture.spec(name: "a.txt"))
        _ = await fixture.scheduler.run(done)
        try FileManager.default.createDirectory(atPath: done.record.workspace, withIntermediateDirectories: true)
        let paused = try fixture.submit(fixture.spec(name: "b.txt"))
        paused.task.updateTitle("stop", subtitle: "stopping")
        _ = await fixture.scheduler.run(paused)

        try fixture.scheduler.cleanFinishedWorkspaces()
        #expect(!FileManager.default.fileExists(atPath: done.record.workspace))
        #expect(FileManager.default.fileExists(atPath: paused.record.workspace))
    }

    @Test func jobsAreFoundByAUniquePrefixOfTheirIdentity() throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec())
        #expect(try fixture.scheduler.job(matching: handle.id.short).id == handle.id)
        #expect(try fixture.scheduler.job(matching: handle.record.request.identifier.rawValue).id == handle.id)
        #expect(throws: SchedulerError.noSuchJob("zzzz")) { try fixture.scheduler.job(matching: "zzzz") }
        #expect(throws: SchedulerError.noSuchJob("ab")) { try fixture.scheduler.job(matching: "ab") }
    }
}
