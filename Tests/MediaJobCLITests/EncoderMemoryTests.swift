import EngineTestKit
import Foundation
import JobEngine
import MediaTestKit
import SQLiteJobStore
import Testing

/// The encoder memory budget through the binary: `MEDIAJOB_ENCODER_MEMORY` bounds how many video
/// segments encode at once, told by the journal while the first segment's encoder is held at the
/// `encoder` fault point (``HeldStep``) with its memory reserved; no timing is involved.
@Suite struct EncoderMemoryTests {
    /// Two CPUs, so that two segment chunks run at once and only the budget can keep one waiting.
    private static func twoCPUs(in fixture: CLIFixture) throws -> [String: String] {
        try FakeSysfs(in: fixture.folder, cpus: 2).environment
    }

    /// A 720p clip without sound that `--chunk-seconds 0.5` cuts into two segments at its 2 s keyframe.
    private static func clip(in fixture: CLIFixture) throws -> String {
        let path = fixture.folder.path("clip.mp4")
        try MediaFixtures.clip(path, size: "1280x720", seconds: 4, audio: false)
        return path
    }

    /// Compresses `clip` with the first segment's encoder held; `whileHeld` runs then, given the
    /// job and its store, and the encoder is let go when it returns.
    /// - Returns: the finished process, the job's journal and the compressed clip's bytes.
    private static func compress(_ clip: String, in fixture: CLIFixture, environment: [String: String], output: String,
                                 whileHeld: (CLIProcess, JobID, SQLiteJobStore) throws -> Void)
        throws -> (result: CLIProcess.Result, journal: [JournalEntry], bytes: Data) {
        let held = try HeldStep(in: fixture.folder, name: "\(UUID().uuidString).fifo")
        let job = try fixture.start("compress", [clip, "--output", output, "--chunk-seconds", "0.5", "--json"],
                                    environment: environment.merging(held.environment(point: "encoder")) { $1 })
        let submitted = try #require(job.waitForEvent("the submitted event") { $0[string: "event"] == "submitted" })
        let id = JobID(rawValue: try #require(submitted[string: "job_id"]))
        let store = try fixture.store()
        #expect(try store.chunks(of: id).filter { $0.plan.stage == .encode }.count == 2, "two segments were planned")
        try #require(held.waitUntil(job, isHeldAt: "the first segment's encoder"))
        try whileHeld(job, id, store)
        held.release()
        let result = job.finish("compress \(clip)")
        return (result, try store.journal(of: id), try Data(contentsOf: URL(fileURLWithPath: output + "/clip.mp4")))
    }

    @Test func aBudgetSmallerThanTwoEncodersKeepsTheSecondSegmentWaitingWithTheSameBytes() throws {
        let fixture = CLIFixture()
        let clip = try Self.clip(in: fixture)
        let environment = try Self.twoCPUs(in: fixture)

        // By default (half of the memory available) both segments encode at once: the second one
        // finishes while the first is held.
        let wide = try Self.compress(clip, in: fixture, environment: environment, output: fixture.folder.path("wide")) {
            job, id, store in
            job.waitUntil("the second segment to finish beside the held one") {
                ((try? store.journal(of: id)) ?? []).contains { $0.event == .checkpoint && $0.detail["chunk"] != nil }
            }
        }
        #expect(wide.result.status == 0, "\(wide.result.stderr)")
        #expect(!wide.journal.contains { $0.event == .waited }, "no segment waited for encoder memory")

        // With 1 MiB, less than one 720p encoder needs, the second segment waits for the first.
        let narrow = try Self.compress(clip, in: fixture, environment: environment.merging(["MEDIAJOB_ENCODER_MEMORY": "1M"]) { $1 },
                                       output: fixture.folder.path("narrow")) { job, id, store in
            job.waitUntil("the second segment to wait for encoder memory") {
                ((try? store.journal(of: id)) ?? []).contains { $0.event == .waited }
            }
            let journal = try store.journal(of: id)
            #expect(!journal.contains { $0.event == .checkpoint && $0.detail["chunk"] != nil },
                    "no segment finished while the first held the whole budget")
        }
        #expect(narrow.result.status == 0, "\(narrow.result.stderr)")
        let waited = narrow.journal.filter { $0.event == .waited }
        #expect(waited.count == 1, "\(waited)")
        #expect(waited.first?.detail["for"] == "encoder memory")
        #expect(waited.first?.detail["encoders_running"] == "1")
        #expect(waited.first?.detail["budget_bytes"] == String(1 << 20))
        #expect(narrow.bytes == wide.bytes, "the budget changes when segments run, never their bytes")
    }

    @Test func anEncoderMemoryThatIsNotASizeIsRefusedNamingTheVariable() throws {
        let fixture = CLIFixture()
        let clip = try Self.clip(in: fixture)
        let result = try fixture.run("compress", [clip, "--output", fixture.folder.path("out")],
                                     environment: ["MEDIAJOB_ENCODER_MEMORY": "lots"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("MEDIAJOB_ENCODER_MEMORY must be a size"), "\(result.stderr)")
        #expect(result.stderr.contains("'lots'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("out")))
    }
}
