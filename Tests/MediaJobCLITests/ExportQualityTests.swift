import EngineTestKit
import Archive
import FFmpeg
import Foundation
import MediaTestKit
import Testing
import Vips

/// Exported media decoded back and compared with a reference render.
@Suite struct ExportQualityTests {
    private func exportSample(_ fixture: CLIFixture) throws -> URL {
        let output = fixture.folder.url.appendingPathComponent("sample.zip")
        #expect(try fixture.run("export", [sampleProject.path, "--output", output.path]).status == 0)
        let folder = fixture.folder.url.appendingPathComponent("unzipped")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ZipReader.forEachEntry(of: output.path) { info, contents in
            var data = Data()
            try contents.readChunks { data.append(contentsOf: $0) }
            try data.write(to: folder.appendingPathComponent(info.name))
        }
        return folder
    }

    /// The landscape's edits (`max_width` 1600, exposure 0.3, contrast 1.1) made by the `vips`
    /// command line from their definition: a Lanczos-3 resize to 1600×1067 (3000×2000 scaled by
    /// 1600/3000, the height rounded), then v → (v·2^0.3 − 128)·1.1 + 128 rounded to 8 bits, saved
    /// at quality 85.
    private func landscapeReference(in folder: URL) throws -> String {
        let part = { (name: String) in folder.appendingPathComponent(name).path }
        let (hscale, vscale) = ((1600 + 1e-6) / 3000, (1067 + 1e-6) / 2000)
        try PhotoFixtures.vips(["resize", sampleProject.appendingPathComponent("landscape-3000x2000.jpg").path, part("r.v"),
                                String(hscale), "--vscale", String(vscale), "--kernel", "lanczos3"])
        let contrast = 1.1, gain = pow(2, 0.3) * contrast
        // `--` ends the options: the offset is negative.
        try PhotoFixtures.vips(["linear", "--", part("r.v"), part("l.v"), String(gain), String(128 * (1 - contrast))])
        try PhotoFixtures.vips(["round", part("l.v"), part("i.v"), "rint"])
        try PhotoFixtures.vips(["cast", part("i.v"), part("reference.jpg[Q=85]"), "uchar"])
        return part("reference.jpg")
    }

    @Test func exportedPhotosHaveTheEditedSizeAndAreExactlyTheReferenceRender() throws {
        let fixture = CLIFixture()
        let folder = try exportSample(fixture)
        try Vips.initialize()
        let landscape = folder.appendingPathComponent("landscape.jpg").path
        let exported = try VipsImage.load(landscape)
        #expect(exported.width == 1600 && exported.height == 1067)
        let reference = try landscapeReference(in: fixture.folder.url)
        #expect(try PhotoFixtures.maxDifference(landscape, reference) == 0,
                "exactly the documented edits, at quality 85: every pixel as the vips command line makes them")

        let portrait = try VipsImage.load(folder.appendingPathComponent("portrait.jpg").path)
        #expect(portrait.width == 1000 && portrait.height == 1400, "cropped")
        let small = try VipsImage.load(folder.appendingPathComponent("small.jpg").path)
        #expect(small.width == 480 && small.height == 640, "turned a quarter")
        let upright = try VipsImage.load(folder.appendingPathComponent("upright.jpg").path)
        #expect(upright.width > upright.height && upright.height == 800, "EXIF orientation applied, then fitted")
    }

    @Test func theExportedClipHasTheTrimmedFramesSizeAndAudio() throws {
        let fixture = CLIFixture()
        let folder = try exportSample(fixture)
        FFmpeg.initialize()
        let clip = try MediaVerifier.verify(folder.appendingPathComponent("clip.mp4").path)
        #expect(clip.frames == 90, "3 s trimmed at 30 fps")
        #expect(abs(clip.duration - 3.0) <= 1.0 / 30)
        #expect(clip.height == 480 && clip.width == 852)
        #expect(clip.hasAudio)
    }

    @Test func aVideoExportedInSegmentsMatchesFFmpegsOwnRenderOfTheSameEdit() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try MediaFixtures.clip(project.appendingPathComponent("in.mp4").path, size: "640x480", seconds: 4)
        let manifest = #"""
            {"version": 1, "name": "t", "assets": [{"path": "in.mp4", "edits": {"max_height": 240}}],
             "export": {"video": {"crf": 18}, "package": {"format": "folder"}}}
            """#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = fixture.folder.path("reference.mp4")
        try MediaFixtures.ffmpeg(["-i", project.appendingPathComponent("in.mp4").path, "-vf", "scale=320:240:flags=lanczos",
                                  "-c:v", "libx264", "-crf", "10", "-an", reference])
        FFmpeg.initialize()
        let exported = "\(output)/in.mp4"
        #expect(try MediaVerifier.verify(exported).frames == 100)
        #expect(try MediaFixtures.psnr(exported, against: reference) >= 35)
    }
}
