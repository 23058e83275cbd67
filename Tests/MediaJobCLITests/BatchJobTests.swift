import EngineTestKit
import FFmpeg
import Foundation
import MediaTestKit
import Testing
import Vips

@Suite struct ThumbnailTests {
    @Test func thumbnailsOfAFolderComeWithAnIndexAndAContactSheet() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("thumbs")
        let result = try fixture.run("thumbnail", [sampleProject.path, "--output", output, "--size", "128"])
        #expect(result.status == 0, "\(result.stderr)")
        struct Index: Decodable {
            struct Entry: Decodable { var source: String; var output: String; var width: Int; var height: Int }
            var thumbnails: [Entry]
        }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/index.json")))
        #expect(index.thumbnails.count == 6)
        #expect(index.thumbnails.allSatisfy { max($0.width, $0.height) == 128 })
        #expect(FileManager.default.fileExists(atPath: "\(output)/contact-sheet.jpg"))
        try Vips.initialize()
        let clip = try VipsImage.load("\(output)/clip-720p30-4s.jpg")
        let pixels = try clip.pixels().data
        let mean = Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count)
        #expect(mean > 30, "a video's thumbnail is not a black frame")
    }

    @Test func anExistingOutputFolderIsNotReplacedWithoutOverwrite() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("thumbs")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let result = try fixture.run("thumbnail", [sampleProject.appendingPathComponent("small-640x480.jpg").path, "--output", output])
        #expect(result.status == 65)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).isEmpty)
    }
}

@Suite struct CompressTests {
    struct Report: Decodable {
        struct Item: Decodable { var output: String; var input_bytes: Int64; var output_bytes: Int64; var copied: Bool }
        var items: [Item]
    }

    @Test func aClipIsReencodedWithEveryFrameAndPhotosShrinkOrAreCopied() throws {
        let fixture = CLIFixture()
        let clip = fixture.folder.path("clip.mp4")
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "3", "-g", "25",
                                  "-c:v", "libx264", "-crf", "5", "-preset", "ultrafast", clip])
        let output = fixture.folder.path("small")
        let tiny = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("compress", [clip, tiny, "--output", output, "--video-crf", "28", "--quality", "95"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/report.json")))
        let video = try #require(report.items.first { $0.output == "clip.mp4" })
        #expect(video.output_bytes < video.input_bytes)
        FFmpeg.initialize()
        let verified = try MediaVerifier.verify("\(output)/clip.mp4")
        #expect(verified.frames == 75 && verified.width == 640)
        #expect(try MediaFixtures.psnr("\(output)/clip.mp4", against: clip) >= 30)
        let photo = try #require(report.items.first { $0.output.hasPrefix("small-640x480") })
        if photo.copied {
            #expect(photo.output_bytes == photo.input_bytes)
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(output)/\(photo.output)")) == Data(contentsOf: URL(fileURLWithPath: tiny)))
        } else {
            #expect(photo.output_bytes < photo.input_bytes)
        }
    }

    @Test func aTargetSizeIsMetBySearchingTheQuality() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("mail")
        let photo = sampleProject.appendingPathComponent("landscape-3000x2000.jpg").path
        let result = try fixture.run("compress", [photo, "--output", output, "--target-size", "200000"])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: "\(output)/landscape-3000x2000.jpg")[.size] as? Int
        #expect((size ?? .max) <= 200_000)
        #expect((size ?? 0) > 100_000, "the highest quality under the target, not the lowest")
    }
}
