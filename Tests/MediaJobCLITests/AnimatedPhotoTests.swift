import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Animated GIF and WebP photos: kept animated in WebP outputs, else their first frame with a
/// word in the package's report. Read back with the `vips` and `vipsheader` tools.
@Suite struct AnimatedPhotoTests {
    /// A project of a 10-frame GIF (ffmpeg's moving test pattern) and the same frames as WebP.
    private func project(_ fixture: CLIFixture, format: String) throws -> URL {
        let project = fixture.folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let gif = project.appendingPathComponent("anim.gif").path
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=5", "-t", "2", gif])
        try PhotoFixtures.vips(["copy", "\(gif)[n=-1]", project.appendingPathComponent("anim.webp").path])
        let manifest = #"""
            {"version": 1, "name": "a", "assets": [{"path": "anim.gif", "edits": {"max_width": 80}},
             {"path": "anim.webp", "output": "turned", "edits": {"rotate": 90}}],
             "export": {"image": {"format": "\#(format)"}, "package": {"format": "folder"}}}
            """#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return project
    }

    /// The project exported to a folder; its path and the folder's.
    private func exported(_ fixture: CLIFixture, format: String) throws -> (project: URL, output: String) {
        let project = try project(fixture, format: format)
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        return (project, output)
    }

    private func header(_ path: String, _ field: String) throws -> String {
        try MediaFixtures.run("/usr/bin/vipsheader", ["-f", field, path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aWebPExportKeepsEveryFrameEditedAndItsTiming() throws {
        let fixture = CLIFixture()
        let (project, output) = try exported(fixture, format: "webp")
        let gif = project.appendingPathComponent("anim.gif").path
        for (name, width, height) in [("anim.webp", 80, 60), ("turned.webp", 120, 160)] {
            let file = "\(output)/\(name)"
            #expect(try header(file, "n-pages") == "10", "\(name) keeps its 10 frames")
            #expect(try header(file, "width") == String(width) && header(file, "height") == String(height), "\(name)")
            #expect(try header(file, "delay") == header(gif, "delay"), "\(name) keeps each frame's delay")
        }
        // Frame 5 is the source's frame 5, not a copy of the first.
        let frame = fixture.folder.path("frame5.png")
        try PhotoFixtures.vips(["extract_band", "\(output)/anim.webp[page=5]", frame, "0", "--n", "3"])
        var differences: [Double] = []
        for page in [5, 0] {
            let reference = fixture.folder.path("reference\(page).png")
            try PhotoFixtures.vips(["resize", "\(gif)[page=\(page)]", fixture.folder.path("resized\(page).v"), "0.5"])
            try PhotoFixtures.vips(["extract_band", fixture.folder.path("resized\(page).v"), reference, "0", "--n", "3"])
            differences.append(try PhotoFixtures.meanDifference(frame, reference))
        }
        #expect(differences[0] < differences[1] / 2, "frame 5 against the source's frames 5 and 0: \(differences)")
    }

    @Test func aStillFormatKeepsTheFirstFrameAndThePackageSaysSo() throws {
        let fixture = CLIFixture()
        let (project, output) = try exported(fixture, format: "jpeg")
        let manifest = try String(contentsOfFile: "\(output)/manifest.json", encoding: .utf8)
        #expect(manifest.contains("assets[0] (anim.gif): the first of its 10 animation frames only"), "\(manifest)")
        #expect(manifest.contains("assets[1] (anim.webp): the first of its 10 animation frames only"), "\(manifest)")

        let thumbnails = fixture.folder.path("thumbnails")
        let thumbnail = try fixture.run("thumbnail", [project.appendingPathComponent("anim.gif").path, "--output", thumbnails])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let index = try String(contentsOfFile: "\(thumbnails)/index.json", encoding: .utf8)
        #expect(index.contains("the first of its 10 animation frames"), "\(index)")
    }
}
