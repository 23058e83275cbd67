import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// Wide-gamut photos through the `mediajob` binary: every photo path converts to sRGB as lcms
/// does (`vips icc_transform`, run separately), unless asked to keep the profile.
@Suite struct PhotoColourTests {
    /// A project of a Display P3 JPEG and an Adobe RGB PNG, exported as PNG to a folder.
    private func project(_ fixture: CLIFixture) throws -> URL {
        let project = fixture.folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try PhotoFixtures.widePicture(project.appendingPathComponent("p3.jpg").path + "[Q=95]", in: .displayP3)
        try PhotoFixtures.widePicture(project.appendingPathComponent("adobe.png").path, in: .adobeRGB)
        let manifest = #"""
            {"version": 1, "name": "colour", "assets": [{"path": "p3.jpg"}, {"path": "adobe.png"}],
             "export": {"image": {"format": "png"}, "package": {"format": "folder"}}}
            """#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return project
    }

    @Test func anExportConvertsEachPhotoFromItsProfileToSRGB() throws {
        let fixture = CLIFixture()
        let project = try project(fixture)
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["p3.jpg", "adobe.png"] {
            let source = project.appendingPathComponent(name).path
            let reference = fixture.folder.path("\(name)-reference.png")
            try PhotoFixtures.srgbReference(of: source, to: reference)
            let exported = "\(output)/\(URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent).png"
            let error = try PhotoFixtures.meanDifference(exported, reference)
            #expect(error <= 2, "\(name): \(error) levels from lcms' sRGB")
            #expect(try PhotoFixtures.meanDifference(source, reference) > 5, "\(name): the old numbers would fail")
            #expect(try PhotoFixtures.exif(exported)["ProfileDescription"] as? String == "sRGB")
        }
    }

    @Test func keepProfileKeepsTheNumbersAndTheSourceProfile() throws {
        let fixture = CLIFixture()
        let project = try project(fixture)
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output, "--keep-profile"])
        #expect(result.status == 0, "\(result.stderr)")
        let source = project.appendingPathComponent("adobe.png").path
        #expect(try PhotoFixtures.meanDifference("\(output)/adobe.png", source) == 0)
        let description = try PhotoFixtures.exif(source)["ProfileDescription"] as? String
        #expect(description != nil && description != "sRGB")
        #expect(try PhotoFixtures.exif("\(output)/adobe.png")["ProfileDescription"] as? String == description)
    }

    @Test func compressAndThumbnailConvertToSRGB() throws {
        let fixture = CLIFixture()
        let source = fixture.folder.path("wide.jpg")
        try PhotoFixtures.widePicture("\(source)[Q=100]", in: .displayP3, width: 640, height: 480)
        let reference = fixture.folder.path("reference.png")
        try PhotoFixtures.srgbReference(of: source, to: reference)

        let compressed = fixture.folder.path("compressed")
        let compress = try fixture.run("compress", [source, "--output", compressed, "--quality", "95"])
        #expect(compress.status == 0, "\(compress.stderr)")
        #expect(try String(contentsOfFile: "\(compressed)/report.json", encoding: .utf8).contains(#""copied" : false"#))
        #expect(try PhotoFixtures.meanDifference("\(compressed)/wide.jpg", reference) <= 2)

        let thumbnails = fixture.folder.path("thumbnails")
        let thumbnail = try fixture.run("thumbnail", [source, "--output", thumbnails, "--size", "160", "--format", "png"])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let small = fixture.folder.path("reference-thumbnail.png")
        try PhotoFixtures.vips(["thumbnail", reference, small, "160"])
        #expect(try PhotoFixtures.meanDifference("\(thumbnails)/wide.png", small) <= 2)
        #expect(try PhotoFixtures.exif("\(thumbnails)/contact-sheet.jpg")["ProfileDescription"] as? String == "sRGB")
        // The sheet (one 160 × 160 cell: the 160 × 120 thumbnail 20 rows down on grey 32) shows the
        // reference's sRGB colours: against the reference thumbnail placed and saved so by `vips`.
        let sheet = fixture.folder.path("reference-sheet.v")
        try PhotoFixtures.vips(["embed", small, sheet, "0", "20", "160", "160", "--extend", "background", "--background", "32 32 32"])
        try PhotoFixtures.vips(["copy", sheet, fixture.folder.path("reference-sheet.jpg[Q=85]")])
        #expect(try PhotoFixtures.meanDifference("\(thumbnails)/contact-sheet.jpg", fixture.folder.path("reference-sheet.jpg")) <= 3)
    }

    @Test func theGPUPathConvertsToSRGBAndKeepsTheSafeMetadata() throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let source = project.appendingPathComponent("p3.jpg").path
        try PhotoFixtures.widePicture("\(source)[Q=95]", in: .displayP3, width: 400, height: 300)
        try PhotoFixtures.writeTags(["Copyright=Someone 2026", "GPSLatitude=48.85", "GPSLatitudeRef=N"], to: source)
        let manifest = #"""
            {"version": 1, "name": "gpu", "assets": [{"path": "p3.jpg", "edits": {"max_width": 200}}],
             "export": {"image": {"format": "png"}, "package": {"format": "folder"}}}
            """#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("out")
        let result = try fixture.run("export", [project.path, "--output", output, "--gpu", "on"],
                                     environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let converted = fixture.folder.path("converted.png")
        try PhotoFixtures.srgbReference(of: source, to: converted)
        let reference = fixture.folder.path("reference.png")
        try PhotoFixtures.vips(["resize", converted, reference, "0.5", "--kernel", "lanczos3"])
        #expect(try PhotoFixtures.meanDifference("\(output)/p3.png", reference) <= 2)
        let tags = try PhotoFixtures.exif("\(output)/p3.png")
        #expect(tags["ProfileDescription"] as? String == "sRGB")
        #expect(tags["Copyright"] as? String == "Someone 2026")
        #expect(tags["GPSLatitude"] == nil)
    }
}
