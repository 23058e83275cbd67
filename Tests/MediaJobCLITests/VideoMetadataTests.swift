import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Videos follow the metadata policy, re-encoded or copied: by default no location, device make,
/// model or serial number; capture time, copyright, artist, description and comment kept; all of
/// it with `--keep-metadata`. As `ffprobe -show_format` reads the files.
@Suite struct VideoMetadataTests {
    static let safe = ["creation_time": "2024-05-01T10:00:00.000000Z", "copyright": "(c) Ann Example", "artist": "Ann Example",
                       "comment": "Beach day", "description": "Waves at dusk"]
    static let removed = ["location": "+48.8584+002.2945/", "com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/",
                          "com.apple.quicktime.make": "Apple", "com.apple.quicktime.model": "iPhone 15",
                          "com.apple.quicktime.serialnumber": "F2LX1234ABCD"]

    /// Writes a 3 s clip carrying ``safe`` and ``removed`` as QuickTime metadata, at `crf`.
    static func clip(_ path: String, crf: Int = 23, tagged: Bool = true) throws {
        var arguments = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
                         "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-crf", String(crf), "-pix_fmt", "yuv420p",
                         "-c:a", "aac", "-b:a", "32k"]
        if tagged {
            arguments += ["-movflags", "use_metadata_tags"]
            for (key, value) in (safe.merging(removed) { a, _ in a }).sorted(by: { $0.key < $1.key }) {
                arguments += ["-metadata", "\(key)=\(value)"]
            }
        }
        try MediaFixtures.ffmpeg(arguments + [path])
    }

    /// The container's tags by `ffprobe`.
    static func tags(_ path: String) throws -> [String: String] {
        let json = try MediaFixtures.tool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json",
                                                              "-o", "/dev/stderr", path])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
    }

    /// Checks that `tags` hold the safe set and, unless `all`, none of the removed tags.
    static func expectPolicy(_ tags: [String: String], all: Bool, _ what: String) {
        for (key, value) in safe { #expect(tags[key] == value, "\(what): \(key) in \(tags)") }
        for key in removed.keys where key != "location" {
            #expect((tags[key] != nil) == all, "\(what): \(key) in \(tags)")
        }
        #expect(tags.keys.contains { $0.hasPrefix("location") } == all, "\(what): location in \(tags)")
    }

    @Test(arguments: [false, true])
    func anExportedVideoKeepsOnlyTheSafeMetadataUnlessAllIsAsked(keepAll: Bool) throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Self.clip(project.appendingPathComponent("beach.mp4").path)
        try Data(#"""
            {"version": 1, "name": "P", "assets": [{"path": "beach.mp4"}],
             "export": {"video": {"preset": "ultrafast"}, "package": {"format": "folder", "name": "out"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output, "--gpu", "off"]
                                     + (keepAll ? ["--keep-metadata"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectPolicy(try Self.tags("\(output)/beach.mp4"), all: keepAll, "export")
    }

    @Test func aCopiedVideoIsRewrittenWithoutWhatThePolicyRemovesAndKeepsItsPackets() throws {
        let fixture = CLIFixture()
        let tagged = fixture.folder.path("tagged.mp4"), plain = fixture.folder.path("plain.mp4")
        // Small sources that a lossless re-encode cannot beat: compress copies them.
        try Self.clip(tagged, crf: 45)
        try Self.clip(plain, crf: 45, tagged: false)
        let output = fixture.folder.path("out")
        let result = try fixture.run("compress", [tagged, plain, "--output", output, "--video-crf", "0", "--gpu", "off"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(output)/report.json")))
        let items = (report as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(items.count == 2 && items.allSatisfy { $0["copied"] as? Bool == true }, "\(items)")

        Self.expectPolicy(try Self.tags("\(output)/tagged.mp4"), all: false, "copied")
        // The same packets: ffmpeg's per-stream hash of the packet data matches the source's.
        let hash = { (path: String) throws -> String in
            try MediaFixtures.ffmpeg(["-i", path, "-map", "0", "-c", "copy", "-f", "streamhash", "-hash", "md5",
                                      "/dev/stderr"])
        }
        #expect(try hash("\(output)/tagged.mp4") == (try hash(tagged)))
        // A copy with nothing to remove stays the very same file.
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(output)/plain.mp4")) == (try Data(contentsOf: URL(fileURLWithPath: plain))))
    }
}
