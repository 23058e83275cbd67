import EngineTestKit
import Foundation
import Glibc
import MediaTestKit
import Testing

/// One Ctrl-C pauses a video export between the chunks its plan implies: segments bounded in work.
@Suite struct ChunkBoundedStopTests {
    @Test func oneCtrlCPausesAVideoExportBetweenTheChunksItsWorkImpliesAndResumeFinishesEveryFrame() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("stop")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        // 8 s of 1280×720 at 30 fps, every frame a keyframe, so the plan's even cuts fall on keyframes.
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i",
                                  "sine=frequency=440:sample_rate=48000", "-t", "8", "-g", "1", "-pix_fmt", "yuv420p",
                                  "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", project.path + "/clip.mp4"])
        try Data(#"""
            {"version": 1, "name": "Stop", "assets": [{"path": "clip.mp4"}],
             "export": {"video": {"chunk_seconds": 0.5}, "package": {"format": "folder"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        // The work the README documents: per frame, 1280 × 720 output pixels at veryfast (1) and the same
        // decoded (0.15); one reference thread does 110e6 a second, so 0.5 s is a budget of 55e6: 1.73 s of
        // this clip at most, five segments at the fewest. The planner cuts even shares of 1.6 s while more
        // than two limits are left (four), then halves the last 1.6 s: 0.8, 0.4 and 0.4 s.
        let workPerFrame: Double = 1280 * 720 * 1.15, budget: Double = 110e6 * 0.5
        #expect(Int((240 * workPerFrame / budget).rounded(.up)) == 5)
        let segments = 7

        let output = fixture.folder.path("out")
        let job = try fixture.start("export", [project.path, "--output", output, "--json"])
        let first = try #require(job.waitForEvent { $0[string: "event"] == "progress" }, "a first chunk landed")
        job.send(SIGINT)
        let paused = job.finish()
        #expect(paused.status == 75, "\(paused.stderr)")
        let id = try #require(first[string: "job_id"])
        let status = try fixture.status(id)
        #expect(status[number: "units_total"] == Double(segments + 1), "the segments the work implies, and the audio")

        // The stop landed between chunks: every chunk the store counts done has its output in the
        // workspace, no other chunk has one, and nothing half-written is left.
        let stored = try StoredJob(fixture, id: id)
        let done = try stored.doneChunks
        #expect(!done.isEmpty && done.count < segments + 1, "paused part way: \(done)")
        #expect(try stored.uncommittedFiles.isEmpty)
        let workspace = try #require(try stored.store.job(stored.id)?.workspace)
        let outputs = try FileManager.default.contentsOfDirectory(atPath: workspace)
            .filter { $0.hasPrefix("segment-") || $0.hasPrefix("audio-") }
        #expect(Set(outputs) == Set(done.map { $0 < segments ? "segment-clip-\($0).mp4" : "audio-clip-0.m4a" }))
        // After the stop no chunk started: at most those already running were checkpointed.
        let journal = try stored.store.journal(of: stored.id)
        let expired = try #require(journal.firstIndex { $0.event == .expired }, "the stop is in the journal")
        let running = journal.last { $0.event == .started }?.detail["chunks_at_once"].flatMap(Int.init) ?? 0
        #expect(journal[expired...].filter { $0.event == .checkpoint }.count <= running)

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let frames = fixture.folder.path("frames.txt")
        try MediaFixtures.tool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                    "stream=nb_read_frames", "-of", "csv=p=0", "-o", frames, output + "/clip.mp4"])
        #expect(try String(contentsOfFile: frames, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "240")
    }
}
