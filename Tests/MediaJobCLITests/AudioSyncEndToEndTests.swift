import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Exports keep every audio track of a video in sync with its pictures (within 2 ms of the
/// source, as the `ffmpeg` tool plays both), copied or re-encoded, trimmed or not, and through a
/// cut made by stream copy (an MP4 edit list); what they cannot keep is reported or skipped.
@Suite struct AudioSyncEndToEndTests {
    /// Writes `manifest` and returns a project folder holding `sync.mp4` (``SyncClip``) and
    /// `cut.mp4`, the same cut at 0.7 s by stream copy.
    static func project(_ manifest: String, in fixture: CLIFixture) throws -> String {
        let project = fixture.folder.url.appendingPathComponent("sync")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let sync = project.appendingPathComponent("sync.mp4").path
        try SyncClip.make(sync)
        try MediaFixtures.ffmpeg(["-ss", "0.7", "-i", sync, "-c", "copy", project.appendingPathComponent("cut.mp4").path])
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return project.path
    }

    /// The package's `manifest.json` in an exported folder.
    static func listing(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/manifest.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(arguments: [#""copy""#, #"{"codec": "aac", "bitrate": 128000}"#])
    func exportedSoundStaysInSyncWithThePictures(audio: String) throws {
        let fixture = CLIFixture()
        let project = try Self.project("""
            {"version": 1, "name": "Sync", "assets": [
              {"path": "sync.mp4", "output": "whole"},
              {"path": "sync.mp4", "output": "trimmed", "edits": {"trim": {"start": 0.51, "end": 2.5}}},
              {"path": "cut.mp4", "output": "cut"}],
             "export": {"video": {"preset": "ultrafast"}, "audio": \(audio), "package": {"format": "folder", "name": "out"}}}
            """, in: fixture)
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project, "--output", output, "--gpu", "off"])
        #expect(result.status == 0, "\(result.stderr)")
        for (name, source) in [("whole", "sync.mp4"), ("trimmed", "sync.mp4"), ("cut", "cut.mp4")] {
            let expected = try SyncClip.offset("\(project)/\(source)")
            let offset = try SyncClip.offset("\(output)/\(name).mp4")
            print("audio \(audio), \(name): beep \(offset) ms after the flash (source \(expected) ms)")
            #expect(abs(offset - expected) <= 2, "\(audio), \(name): \(offset) ms, the source \(expected) ms")
        }
        // The cut clip shows what its edit list shows: 2.3 s, the flash at 0.8 s.
        #expect(abs(try SyncClip.flash("\(output)/cut.mp4") - 800) < 1)
        let duration = try MediaFixtures.tool("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", "-o", "/dev/stderr", "\(output)/cut.mp4",
        ])
        #expect(abs((Double(duration.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 2.3) < 0.05, "\(duration)")
    }

    @Test func everyAudioTrackIsKeptLabelledAndSubtitlesAreReported() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let tracks = fixture.folder.path("tracks.mkv"), subtitles = fixture.folder.path("subtitles.srt")
        try SyncClip.make(tracks, tracks: [("eng", "Main"), ("fra", "Commentaire")])
        try Data("1\n00:00:01,000 --> 00:00:02,000\nBonjour\n".utf8).write(to: URL(fileURLWithPath: subtitles))
        let source = project.appendingPathComponent("tracks.mkv").path
        try MediaFixtures.ffmpeg(["-i", tracks, "-i", subtitles, "-map", "0", "-map", "1", "-c", "copy",
                                  "-metadata:s:s:0", "language=fra", source])
        try Data(#"""
            {"version": 1, "name": "Tracks", "assets": [{"path": "tracks.mkv", "output": "tracks"}],
             "export": {"video": {"preset": "ultrafast"}, "package": {"format": "folder", "name": "out"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output, "--gpu", "off"])
        #expect(result.status == 0, "\(result.stderr)")
        let exported = "\(output)/tracks.mp4"
        let tags = try MediaFixtures.tool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "a", "-show_entries", "stream_tags=language,handler_name",
            "-of", "csv=p=0:nk=0", "-o", "/dev/stderr", exported,
        ])
        let lines = tags.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(tags)")
        #expect(lines.first?.contains("language=eng") == true && lines.first?.contains("handler_name=Main") == true, "\(tags)")
        #expect(lines.last?.contains("language=fra") == true && lines.last?.contains("handler_name=Commentaire") == true,
                "\(tags)")
        for track in 0..<2 {
            let offset = try SyncClip.offset(exported, track: track), expected = try SyncClip.offset(source, track: track)
            #expect(abs(offset - expected) <= 2, "track \(track): \(offset) ms, the source \(expected) ms")
        }
        let dropped = try Self.listing(output)["dropped"] as? [String] ?? []
        #expect(dropped.count == 1 && dropped[0].contains("tracks.mkv") && dropped[0].contains("subtitle (subrip, fra)"),
                "\(dropped)")
    }

    @Test func aVideoWhoseAudioMP4CannotHoldIsThatAssetsFailureNotTheJobs() throws {
        let fixture = CLIFixture()
        let project = try Self.project(#"""
            {"version": 1, "name": "Sync", "assets": [
              {"path": "pcm.mov", "output": "pcm"}, {"path": "sync.mp4", "output": "whole"}],
             "export": {"video": {"preset": "ultrafast"}, "package": {"format": "folder", "name": "out"}}}
            """#, in: fixture)
        try MediaFixtures.ffmpeg(["-i", "\(project)/sync.mp4", "-c:v", "copy", "-c:a", "pcm_s16le", "\(project)/pcm.mov"])
        let output = fixture.folder.path("out")
        let refused = try fixture.run("export", [project, "--output", output, "--gpu", "off"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("assets[0] (pcm.mov)") && refused.stderr.contains("AAC"), "\(refused.stderr)")

        let skipping = try fixture.run("export", [project, "--output", fixture.folder.path("skipping"), "--skip-bad",
                                                  "--gpu", "off"])
        #expect(skipping.status == 0, "\(skipping.stderr)")
        let skipped = try Self.listing(fixture.folder.path("skipping"))["skipped"] as? [String] ?? []
        #expect(skipped.count == 1 && skipped[0].contains("pcm.mov"), "\(skipped)")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("skipping/whole.mp4")))
    }
}
