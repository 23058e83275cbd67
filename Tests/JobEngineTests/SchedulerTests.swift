import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

@Suite struct SchedulerTests {
    @Test func registeringAKindTwiceIsAnErrorNotACrash() throws {
        let fixture = try EngineFixture()
        #expect(throws: SchedulerError.alreadyRegistered("scripted")) {
            try fixture.scheduler.register(ScriptedJob(), permitted: TaskIdentifier("com.example.other.*"))
        }
    }

    @Test func submittingAnUnregisteredIdentifierIsRejectedAndRecorded() throws {
        let fixture = try EngineFixture()
        let request = try TaskRequest(identifier: TaskIdentifier("com.example.unknown.*").unique(), title: "x", subtitle: "y")
        let error = try #require(throws: SchedulerError.self) { try fixture.scheduler.submit(request, spec: fixture.spec()) }
        guard case .rejected(let id, .unregisteredIdentifier(request.identifier)) = error else { Issue.record("\(error)"); return }
        #expect(try fixture.state(id) == .rejected)
    }

    @Test func requiringAnUnsupportedGPUIsRejectedWithTheProbesReason() throws {
        let fixture = try EngineFixture(probe: FixedResourceProbe([], reason: "only software devices"))
        let error = try #require(throws: SchedulerError.self) {
            try fixture.scheduler.submit(try fixture.request(resources: .gpu), spec: fixture.spec())
        }
        #expect(error.message.contains("only software devices"))
        guard case .rejected(_, .unsupportedResource("only software devices")) = error else { Issue.record("\(error)"); return }
    }

    @Test func requiringASupportedGPUIsAccepted() throws {
        let fixture = try EngineFixture(probe: FixedResourceProbe([.gpu]))
        guard case .created = try fixture.scheduler.submit(try fixture.request(resources: .gpu), spec: fixture.spec()) else {
            Issue.record("expected a new job")
            return
        }
    }

    @Test func invalidInputIsRejectedBeforeAnythingIsWritten() throws {
        let fixture = try EngineFixture()
        #expect(throws: SchedulerError.self) { try fixture.scheduler.submit(try fixture.request(), spec: fixture.spec(units: 0)) }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("out.txt")))
    }

    @Test func submittingTheSameWorkAgainReturnsTheExistingJob() throws {
        let fixture = try EngineFixture()
        let first = try fixture.submit(fixture.spec())
        guard case .existing(let job) = try fixture.scheduler.submit(try fixture.request(), spec: fixture.spec()) else {
            Issue.record("expected the existing job")
            return
        }
        #expect(job.id == first.id)
        #expect(try fixture.scheduler.jobs().count == 1)
    }

    @Test func failStrategyIsRejectedAtOnceWhenEverySlotIsBusy() async throws {
        let started = Gate(), release = Gate()
        defer { release.open() }
        let fixture = try EngineFixture(maxJobs: 1) { _, _ in
            started.open()
            await release.wait()
        }
        let running = try fixture.submit(fixture.spec(name: "a.txt"))
        let scheduler = fixture.scheduler
        async let first = scheduler.run(running)
        try await started.wait(until: "the first job's first unit started")
        #expect(try fixture.state(running.id) == .running)

        let error = try #require(throws: SchedulerError.self) {
            try fixture.scheduler.submit(try fixture.request(.fail), spec: fixture.spec(name: "b.txt"))
        }
        guard case .rejected(let id, .noCapacity(slots: 1, jobStays: nil)) = error else { Issue.record("\(error)"); return }
        #expect(try fixture.state(id) == .rejected)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("b.txt")))
        release.open()
        #expect(await first == .completed)
    }

    @Test func queuedJobsWaitAndStartInSubmissionOrderAsCapacityFrees() async throws {
        let started = Gate(), release = Gate()
        defer { release.open() }
        let fixture = try EngineFixture(maxJobs: 1) { _, _ in
            started.open()
            await release.wait()
        }
        let a = try fixture.submit(fixture.spec(units: 2, name: "a.txt"))
        let b = try fixture.submit(fixture.spec(units: 2, name: "b.txt"))
        let c = try fixture.submit(fixture.spec(units: 2, name: "c.txt"))
        let scheduler = fixture.scheduler
        async let runC = scheduler.run(c)
        async let runB = scheduler.run(b)
        async let runA = scheduler.run(a)
        try await started.wait(until: "a unit of the first job started")
        #expect(try fixture.state(a.id) == .running)
        #expect(try fixture.state(b.id) == .queued)
        #expect(try fixture.state(c.id) == .queued)
        release.open()
        #expect(await [runA, runB, runC] == [.completed, .completed, .completed])

        func startedAt(_ id: JobID) throws -> Date {
            try #require(try fixture.store.journal(of: id).first { $0.event == .started }?.at)
        }
        func endedAt(_ id: JobID) throws -> Date {
            try #require(try fixture.store.journal(of: id).first { $0.event == .ended }?.at)
        }
        #expect(try startedAt(b.id) >= endedAt(a.id))
        #expect(try startedAt(c.id) >= endedAt(b.id))
    }

    @Test func anExistingDestinationIsNeverOverwrittenUnlessAsked() async throws {
        let fixture = try EngineFixture()
        try Data("precious".utf8).write(to: URL(fileURLWithPath: fixture.folder.path("out.txt")))
        #expect(throws: SchedulerError.self) { try fixture.submit(fixture.spec()) }
        #expect(fixture.result() == "precious")

        let handle = try fixture.submit(fixture.spec(overwrite: true))
        #expect(await fixture.scheduler.run(handle) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4))
    }

    @Test func aDestinationThatAppearsDuringTheJobIsNotOverwritten() async throws {
        let fixture = try EngineFixture()
        let destination = URL(fileURLWithPath: fixture.folder.path("out.txt"))
        let handle = try fixture.submit(fixture.spec())
        try Data("someone else's".utf8).write(to: destination)
        #expect(await fixture.scheduler.run(handle) == .failed(.destinationExists))
        #expect(fixture.result() == "someone else's")
        try FileManager.default.removeItem(at: destination)
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4))
    }

    @Test func aDestinationAlreadyHoldingThisJobsResultCountsAsPublished() async throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec())
        try Data(ScriptedJob.expectedResult(units: 4).utf8).write(to: URL(fileURLWithPath: fixture.folder.path("out.txt")))
        #expect(await fixture.scheduler.run(handle) == .completed)
    }
}
