import EngineTestKit
import Foundation
import MediaTestKit
import Synchronization

/// A small export project (two photos and the sample clip, trimmed) for tests that run an export
/// several times, and the archive an uninterrupted export of it makes.
enum MiniProject {
    private static let files = ["small-640x480.jpg", "overlay-alpha-480x480.png", "clip-720p30-4s.mp4"]
    private static let manifest = #"""
        {"version": 1, "name": "Mini", "assets": [
          {"path": "small-640x480.jpg", "output": "small", "edits": {"rotate": 90}},
          {"path": "overlay-alpha-480x480.png", "output": "overlay"},
          {"path": "clip-720p30-4s.mp4", "output": "clip", "edits": {"trim": {"start": 0.5, "end": 3.5}, "max_height": 360}}],
         "export": {"video": {"codec": "h264", "crf": 23, "preset": "veryfast"}, "audio": "copy",
                    "package": {"format": "zip", "name": "mini.zip"}}}
        """#
    private static let reference = Mutex<Data?>(nil)

    /// Writes the project into `folder`'s `mini` folder and returns its path.
    static func make(in folder: TemporaryDirectory) throws -> String {
        let project = folder.url.appendingPathComponent("mini")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for name in files {
            try FileManager.default.copyItem(at: sampleProject.appendingPathComponent(name),
                                             to: project.appendingPathComponent(name))
        }
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return project.path
    }

    /// The archive an uninterrupted export makes, exported once per test process.
    static func referenceArchive() throws -> Data {
        try reference.withLock { cached in
            if let cached { return cached }
            let fixture = CLIFixture()
            let output = fixture.folder.path("reference.zip")
            let result = try fixture.run("export", [try make(in: fixture.folder), "--output", output])
            guard result.status == 0 else { throw MediaFixtures.FixtureError(message: "reference export: \(result.stderr)") }
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            cached = data
            return data
        }
    }
}
