import EngineTestKit
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

/// A ``HostCondition`` a test switches on and off.
private final class Switch: HostCondition {
    private let reason = Mutex<String?>(nil)

    func set(_ text: String?) { reason.withLock { $0 = text } }
    func reasonToWait() -> String? { reason.withLock { $0 } }
}

@Suite struct HostConditionTests {
    @Test func aHoldingConditionPausesTheJobAtTheNextBoundaryWithItsReasonAndResumeWaitsForIt() async throws {
        let hold = Switch()
        let fixture = try EngineFixture(hostCondition: hold) { index, _ in
            if index == 2 { hold.set("too hot") }
        }
        let handle = try fixture.submit(fixture.spec(units: 6))
        #expect(await fixture.scheduler.run(handle) == .paused)
        let job = try #require(try fixture.store.job(handle.id))
        #expect(job.state == .paused)
        #expect(job.message == "too hot")
        #expect(try fixture.store.chunks(of: handle.id).filter(\.isDone).map(\.index) == [0, 1, 2],
                "the chunk in hand finished; the next one never started")
        #expect(try fixture.store.journal(of: handle.id).contains { $0.detail["held"] == "too hot" })

        #expect(throws: SchedulerError.hostHolding(handle.id, "too hot")) { try fixture.scheduler.resume(handle.id) }
        #expect(try fixture.state(handle.id) == .paused, "a refused resume leaves the job as it was")

        hold.set(nil)
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(try fixture.store.job(handle.id)?.message == nil)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 6))
        #expect(fixture.job.log.starts.values.allSatisfy { $0 == 1 }, "no chunk ran twice")
    }
}
