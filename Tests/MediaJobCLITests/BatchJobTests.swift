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

    /// A re-encode larger than its input is normally replaced by the input; not when `--max-size`
    /// shrank it, or the result would be larger in pixels than asked for. Read by `vipsheader` and
    /// `ffprobe`.
    @Test func anOutputThatMaxSizeShrankIsKeptEvenWhenItsInputIsSmallerInBytes() throws {
        let fixture = CLIFixture()
        let photo = fixture.folder.path("coarse.jpg"), clip = fixture.folder.path("coarse.mp4")
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=800x600", "-frames:v", "1", "-q:v", "31", photo])
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x480:rate=25", "-t", "1",
                                  "-c:v", "libx264", "-crf", "51", "-preset", "ultrafast", clip])
        let output = fixture.folder.path("small")
        let result = try fixture.run("compress", [photo, clip, "--output", output, "--max-size", "600",
                                                  "--quality", "100", "--video-crf", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/report.json")))
        #expect(report.items.count == 2)
        for item in report.items {
            #expect(!item.copied && item.output_bytes > item.input_bytes,
                    "\(item.output): re-encoded larger than its input, and kept since --max-size shrank it")
            let (tool, arguments) = item.output.hasSuffix(".mp4")
                ? ("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height"])
                : ("/usr/bin/vipsheader", ["-a"])
            let said = try MediaFixtures.run(tool, arguments + ["\(output)/\(item.output)"]).output
            let sides = ["width", "height"].compactMap { side in // "width: 600" or "width=600"
                said.split(separator: "\n").first { $0.hasPrefix(side) }
                    .flatMap { Int($0.split(whereSeparator: { $0 == ":" || $0 == "=" }).last!.trimmingCharacters(in: .whitespaces)) }
            }
            #expect(sides.count == 2 && sides.max() == 600, "\(item.output): \(said)")
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
