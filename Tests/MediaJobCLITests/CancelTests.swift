import EngineTestKit
import Foundation
import Testing

/// `mediajob cancel` from another process records the request and returns, whatever the job is
/// doing: it never waits for the chunk in hand, which here is held until the test lets it go
/// (``HeldStep``); the job then pauses at that chunk's boundary.
@Suite struct CancelTests {
    @Test func cancelReturnsWhileTheChunkInHandIsHeldAndTheJobPausesAtItsBoundary() throws {
        let fixture = CLIFixture()
        let held = try HeldStep(in: fixture.folder)
        let job = try fixture.start("selftest", fixture.selftest(units: 5, unitMilliseconds: 10),
                                    environment: held.environment(point: "chunk", hit: 2))
        let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
        let id = String(try #require(submitted[string: "job_id"]).prefix(8))
        try #require(held.waitUntil(job, isHeldAt: "the second chunk"))

        let cancel = try fixture.run("cancel", [id])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        #expect(held.isStillHeld, "cancel returned while the chunk was still held")
        #expect(cancel.stderr.contains("Job \(id) is still in its chunk; it will pause at its next chunk boundary"),
                "\(cancel.stderr)")
        #expect(try fixture.status(id)[string: "state"] == "running")

        let watch = try CLIProcess(try SuggestedCommand.after("Follow it with: ", in: cancel.stderr))
        held.release()
        let stopped = job.finish("pause once the held chunk is let go")
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(watch.finish("follow the job to its end").status == 75, "the watch ends with the job's outcome")
        #expect(try fixture.status(id)[string: "state"] == "paused")
    }
}
