import EngineTestKit
import Foundation
import MediaTestKit
import Testing

/// `export.video.hdr`: an HDR clip is exported tone-mapped to SDR by default, kept HDR in HEVC when
/// asked, and refused with a clear error when kept HDR is asked of H.264; its thumbnail is
/// tone-mapped too.
@Suite struct HDREndToEndTests {
    /// A project folder with `pq.mp4` (``HDRClip``) and the `video` settings given.
    static func project(video: String, in fixture: CLIFixture) throws -> String {
        let project = fixture.folder.url.appendingPathComponent("hdr")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try HDRClip.make(project.appendingPathComponent("pq.mp4").path)
        try Data("""
            {"version": 1, "name": "HDR", "assets": [{"path": "pq.mp4", "output": "pq"}],
             "export": {"video": \(video), "package": {"format": "folder", "name": "out"}}}
            """.utf8).write(to: project.appendingPathComponent("project.json"))
        return project.path
    }

    @Test func anHDRClipIsExportedToneMappedByDefaultAndKeptWhenAsked() throws {
        let fixture = CLIFixture()
        let project = try Self.project(video: #"{"crf": 0, "preset": "ultrafast"}"#, in: fixture)
        let sdr = fixture.folder.path("sdr")
        let exported = try fixture.run("export", [project, "--output", sdr, "--gpu", "off"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let reference = fixture.folder.path("reference.mkv")
        try MediaFixtures.ffmpeg(["-i", "\(project)/pq.mp4", "-vf", HDRClip.toneMapping(transfer: "smpte2084"),
                                  "-c:v", "ffv1", reference])
        let psnr = try MediaFixtures.psnr("\(sdr)/pq.mp4", against: reference)
        #expect(psnr >= 45, "\(psnr) dB against ffmpeg's tone-mapping")
        let sdrTags = try HDRClip.description("\(sdr)/pq.mp4")
        #expect(sdrTags.contains("pix_fmt=yuv420p\n") && sdrTags.contains("color_transfer=bt709")
                && sdrTags.contains("color_primaries=bt709"), "\(sdrTags)")

        let keep = CLIFixture()
        let keptProject = try Self.project(video: #"{"codec": "hevc", "preset": "ultrafast", "hdr": "keep"}"#, in: keep)
        let kept = keep.folder.path("kept")
        let keeping = try keep.run("export", [keptProject, "--output", kept, "--gpu", "off"])
        #expect(keeping.status == 0, "\(keeping.stderr)")
        let keptTags = try HDRClip.description("\(kept)/pq.mp4")
        for tag in ["pix_fmt=yuv420p10le", "color_transfer=smpte2084", "color_primaries=bt2020",
                    "max_luminance=10000000/10000", "max_content=1000"] {
            #expect(keptTags.contains(tag), "\(tag) in \(keptTags)")
        }
        // The source's x265 info SEI (build, CPU features) is not the machine's to pass on.
        let info = try EncoderInfo.x265(in: "\(kept)/pq.mp4")
        #expect(info == nil, "\(info ?? "")")
    }

    @Test func keepingHDRInH264IsRefusedNamingTheField() throws {
        let fixture = CLIFixture()
        let project = try Self.project(video: #"{"hdr": "keep"}"#, in: fixture)
        let result = try fixture.run("export", [project, "--output", fixture.folder.path("out")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("export.video.hdr") && result.stderr.contains("hevc or av1"), "\(result.stderr)")
    }

    @Test func anHDRThumbnailIsToneMapped() throws {
        let fixture = CLIFixture()
        let source = fixture.folder.path("pq.mp4"), thumbnails = fixture.folder.path("thumbs")
        try HDRClip.make(source)
        let result = try fixture.run("thumbnail", [source, "--output", thumbnails, "--size", "320", "--quality", "95"])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = fixture.folder.path("reference.png")
        try MediaFixtures.ffmpeg(["-i", source, "-frames:v", "1", "-vf",
                                  HDRClip.toneMapping(transfer: "smpte2084") + ",scale=flags=accurate_rnd+full_chroma_int,format=rgb24",
                                  reference])
        let shown = try ColourBars.decodedFrame("\(thumbnails)/pq.jpg"), expected = try ColourBars.decodedFrame(reference)
        #expect(shown.pixels.count == expected.pixels.count)
        let error = zip(shown.pixels, expected.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) }
            / Double(max(1, shown.pixels.count))
        print("HDR thumbnail (JPEG): \(error) levels from ffmpeg's tone-mapped frame on average")
        #expect(error <= 3, "\(error) levels on average")
    }
}
