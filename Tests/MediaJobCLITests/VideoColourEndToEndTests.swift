import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Export, compress and thumbnail show a video's colours as the `ffmpeg` tool decodes them from
/// the source (with its tags honoured), whatever its matrix and range, on the CPU and the GPU.
@Suite struct VideoColourEndToEndTests {
    /// A BT.709 clip with a colour edit and a full-range BT.709 clip fitted smaller, exported
    /// losslessly into a folder.
    static func project(in fixture: CLIFixture) throws -> String {
        let project = fixture.folder.url.appendingPathComponent("colour")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try ColourBars.make(project.appendingPathComponent("hd.mp4").path, .bt709)
        try ColourBars.make(project.appendingPathComponent("full.mp4").path, .bt709FullRange)
        try Data(#"""
            {"version": 1, "name": "Colour", "assets": [
              {"path": "hd.mp4", "output": "hd", "edits": {"exposure": 0.2, "contrast": 1.1, "saturation": 1.3}},
              {"path": "full.mp4", "output": "full", "edits": {"max_width": 160}}],
             "export": {"video": {"crf": 0, "preset": "ultrafast"}, "package": {"format": "folder", "name": "out"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        return project.path
    }

    @Test(arguments: ["off", "on"])
    func anExportShowsTheSourceColoursEditedOnEitherPath(gpu: String) throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture)
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project, "--output", output, "--gpu", gpu],
                                     environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let edited = try ColourBars.shown("\(project)/hd.mp4").map {
            ColourDefinition.apply(exposure: 0.2, contrast: 1.1, saturation: 1.3, to: $0)
        }
        let hdError = ColourBars.maxError(try ColourBars.shown("\(output)/hd.mp4"), edited)
        let fullError = ColourBars.maxError(try ColourBars.shown("\(output)/full.mp4"), try ColourBars.shown("\(project)/full.mp4"))
        print("export --gpu \(gpu): BT.709 with a colour edit \(hdError) levels, full range resized \(fullError) levels")
        #expect(hdError <= 4 && fullError <= 4, "BT.709 \(hdError), full range \(fullError) levels")
        let hd = try ColourBars.tags("\(output)/hd.mp4"), full = try ColourBars.tags("\(output)/full.mp4")
        #expect(hd["color_space"] == "bt709" && hd["color_primaries"] == "bt709" && hd["color_transfer"] == "bt709"
                && hd["color_range"] == "tv", "\(hd)")
        #expect(full["color_space"] == "bt709" && full["color_range"] == "pc", "\(full)")
    }

    @Test func compressAndThumbnailShowTheSourceColours() throws {
        let fixture = CLIFixture()
        let source = fixture.folder.path("full.mp4")
        try ColourBars.make(source, .bt709FullRange, width: 640, height: 96)
        let compressed = fixture.folder.path("small")
        let compress = try fixture.run("compress", [source, "--output", compressed, "--max-size", "320x96", "--gpu", "off"])
        #expect(compress.status == 0, "\(compress.stderr)")
        let compressError = ColourBars.maxError(try ColourBars.shown("\(compressed)/full.mp4"), try ColourBars.shown(source))
        #expect(compressError <= 4, "compress: \(compressError) levels")
        #expect(try ColourBars.tags("\(compressed)/full.mp4")["color_space"] == "bt709")

        let thumbnails = fixture.folder.path("thumbs")
        let thumbnail = try fixture.run("thumbnail", [source, "--output", thumbnails, "--size", "320", "--quality", "95"])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        // A JPEG: its own full-range BT.601, which the `ffmpeg` tool reads by the JPEG standard.
        let thumbnailError = ColourBars.maxError(try ColourBars.shown("\(thumbnails)/full.jpg"), try ColourBars.shown(source))
        print("compress: \(compressError) levels; thumbnail: \(thumbnailError) levels")
        #expect(thumbnailError <= 4, "thumbnail: \(thumbnailError) levels")
    }
}
