import EngineTestKit
import Foundation
import Glibc
import Testing

/// Ctrl-C through the built binary, told apart by a step that is held until the test lets it go
/// (``HeldStep``): the first Ctrl-C waits for the work in hand, the second ends the process at once
/// while that work is still held; on a fresh export, on a resume and while the job is planned.
/// The job then resumes to the archive an uninterrupted export makes.
@Suite struct SecondStopTests {
    @Test func theFirstCtrlCWaitsForTheChunkInHandThenPausesAndTheJobResumesToTheSameBytes() throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let output = fixture.folder.path("mini.zip")
        let paused = try expectFirstCtrlCWaits(in: fixture, output: output, point: "chunk", step: "the first chunk",
                                               saying: "Stopping at the next chunk boundary")
        let id = try #require(paused.events.first?[string: "job_id"])
        #expect(try fixture.status(id)[string: "state"] == "paused")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is published by a stop")

        try expectResumes(id, in: fixture, output: output, to: expected)
    }

    @Test func aSecondCtrlCStopsAFreshExportAndAResumeAtOnceWhileTheirChunkIsHeld() throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let output = fixture.folder.path("mini.zip")
        let project = try MiniProject.make(in: fixture.folder)

        let fresh = try HeldStep(in: fixture.folder, name: "fresh.fifo")
        let job = try fixture.start("export", [project, "--output", output, "--json"],
                                    environment: fresh.environment(point: "chunk"))
        let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
        let id = try #require(submitted[string: "job_id"])
        try expectSecondCtrlCStopsAtOnce(job, held: fresh, at: "a fresh export's first chunk")
        #expect(try fixture.status(id)[string: "state"] == "paused")

        let again = try HeldStep(in: fixture.folder, name: "resume.fifo")
        let resumed = try fixture.start("resume", [id, "--json"], environment: again.environment(point: "chunk"))
        try expectSecondCtrlCStopsAtOnce(resumed, held: again, at: "a resumed job's first chunk")
        #expect(try fixture.status(id)[string: "state"] == "paused")
        #expect(try StoredJob(fixture, id: id).uncommittedFiles.isEmpty, "nothing half-written is left")

        try expectResumes(id, in: fixture, output: output, to: expected)
    }

    @Test func aCtrlCWhileTheJobIsPlannedPausesItAsSoonAsItIsRecorded() throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let output = fixture.folder.path("mini.zip")
        let paused = try expectFirstCtrlCWaits(in: fixture, output: output, point: "plan", step: "planning",
                                               saying: "Stopping once the job is planned")
        let id = try #require(paused.events.first?[string: "job_id"])
        #expect(!paused.events.contains { $0[string: "event"] == "progress" }, "no chunk ran after the stop")
        #expect(try StoredJob(fixture, id: id).doneChunks.isEmpty)

        try expectResumes(id, in: fixture, output: output, to: expected)
    }

    @Test func aSecondCtrlCWhileTheJobIsPlannedStopsAtOnceAndRecordsNothing() throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let held = try HeldStep(in: fixture.folder)
        let output = fixture.folder.path("mini.zip")
        let project = try MiniProject.make(in: fixture.folder)
        let job = try fixture.start("export", [project, "--output", output, "--json"],
                                    environment: held.environment(point: "plan"))
        try #require(held.waitUntil(job, isHeldAt: "planning"))
        job.send(SIGINT)
        try #require(job.waitForStderr(containing: "Stopping once the job is planned"))
        job.send(SIGINT)
        let stopped = job.finish("stop at once on the second Ctrl-C while planning is held")
        #expect(!held.isStillHeld, "the process ended while planning was still held")
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("no job was recorded"), "\(stopped.stderr)")
        let jobs = try fixture.run("jobs", ["--json"])
        #expect(jobs.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "no job was recorded: \(jobs.stdout)")

        let again = try fixture.run("export", [project, "--output", output])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == expected, "byte-identical to an uninterrupted export")
    }

    /// Exports the mini project with `step` held at fault point `point` and sends one Ctrl-C: the
    /// process must say it is stopping, still hold the step, and end paused once it is released.
    /// - Returns: what the export left.
    private func expectFirstCtrlCWaits(in fixture: CLIFixture, output: String, point: String, step: String,
                                       saying stopping: String) throws -> CLIProcess.Result {
        let held = try HeldStep(in: fixture.folder)
        let job = try fixture.start("export", [try MiniProject.make(in: fixture.folder), "--output", output, "--json"],
                                    environment: held.environment(point: point))
        try #require(held.waitUntil(job, isHeldAt: step))
        job.send(SIGINT)
        try #require(job.waitForStderr(containing: stopping))
        #expect(held.isStillHeld, "the first Ctrl-C waits for \(step)")
        held.release()
        let paused = job.finish("pause once \(step) was released")
        #expect(paused.status == 75, "\(paused.stderr)")
        #expect(paused.events.last?[string: "outcome"] == "paused")
        return paused
    }

    /// Sends Ctrl-C twice to `process`, held at `step`: the first must say it is stopping, the
    /// second must end the process (paused, exit 75) while the step is still held.
    private func expectSecondCtrlCStopsAtOnce(_ process: CLIProcess, held: HeldStep, at step: String) throws {
        try #require(held.waitUntil(process, isHeldAt: step))
        process.send(SIGINT)
        try #require(process.waitForStderr(containing: "Stopping at the next chunk boundary"))
        process.send(SIGINT)
        let stopped = process.finish("stop at once on the second Ctrl-C while \(step) is held")
        #expect(!held.isStillHeld, "the process ended while \(step) was still held")
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("Stopped. The last checkpoint stands."), "\(stopped.stderr)")
        #expect(stopped.events.last?[string: "outcome"] == "paused")
        held.release()
    }

    /// Resumes job `id` to the end and checks the archive against an uninterrupted export's.
    private func expectResumes(_ id: String, in fixture: CLIFixture, output: String, to expected: Data) throws {
        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == expected, "byte-identical to an uninterrupted export")
        #expect(try StoredJob(fixture, id: id).checkpointedChunks.count == Set(try StoredJob(fixture, id: id).checkpointedChunks).count,
                "no chunk checkpointed twice")
    }
}
