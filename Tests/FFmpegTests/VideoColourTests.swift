import EngineTestKit
import FFmpeg
import Foundation
import MediaTestKit
import Testing

/// Every YUV ↔ RGB step uses the source's own matrix and range, and the output says which:
/// bars of known colours, written by the `ffmpeg` tool as BT.601, BT.709, untagged (BT.601, as
/// `ffmpeg` writes and reads them) and full-range BT.709, come out showing the colours the
/// `ffmpeg` tool decodes from the source, edited by the 8-bit definition worked out by hand.
///
/// Outputs are lossless (x264 at CRF 0), so the error left is the 8-bit YUV round trip of the
/// edited colours: at most 3 levels (a chroma step is 1.6–1.9 levels of red or blue). Reading
/// a BT.709 source as BT.601, the mistake this guards against, puts pure green 35 levels off.
@Suite struct VideoColourTests {
    init() { FFmpegTestSetup.ready }

    static let encodings: [ColourBars.Encoding] = [.bt601, .bt709, .untagged, .bt709FullRange]
    static let colourEdit = VideoEdit(exposure: 0.2, contrast: 1.1, saturation: 1.3)
    static let lossless = VideoEncoding(codec: "libx264", crf: 0, preset: "ultrafast", threads: 1)
    static let tolerance = 3.0

    /// The tags an output of a source made with `encoding` must carry: the source's, with the
    /// BT.601 matrix named for an untagged one (H.264's decoder reports full range as `yuvj420p`).
    static func expectedTags(_ encoding: ColourBars.Encoding) -> [String: String] {
        [
            "pix_fmt": encoding.fullRange ? "yuvj420p" : "yuv420p", "color_range": encoding.fullRange ? "pc" : "tv",
            "color_space": encoding.tag ?? "smpte170m",
            "color_primaries": encoding.tag ?? "unknown", "color_transfer": encoding.tag ?? "unknown",
        ]
    }

    @Test(arguments: encodings)
    func aColourEditShowsTheEditedSourceColoursAndKeepsItsTags(encoding: ColourBars.Encoding) throws {
        let scratch = TemporaryDirectory()
        let source = scratch.path("bars.mp4"), output = scratch.path("edited.mp4")
        try ColourBars.make(source, encoding)
        try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: Self.colourEdit, encoding: Self.lossless,
                                  output: output)
        let expected = try ColourBars.shown(source).map { ColourDefinition.apply(Self.colourEdit, to: $0) }
        let shown = try ColourBars.shown(output)
        let error = ColourBars.maxError(shown, expected)
        print("colour edit on \(encoding): max error \(error) levels")
        #expect(error <= Self.tolerance, "\(encoding): \(shown) against \(expected)")
        #expect(try ColourBars.tags(output) == Self.expectedTags(encoding))
    }

    @Test(arguments: encodings)
    func withoutAColourEditTheColoursAndTagsStayTheSourcesWhetherResizedOrNot(encoding: ColourBars.Encoding) throws {
        let scratch = TemporaryDirectory()
        let source = scratch.path("bars.mp4")
        try ColourBars.make(source, encoding)
        let expected = try ColourBars.shown(source)
        for (name, edit) in [("same", VideoEdit.identity), ("smaller", VideoEdit(maxWidth: 160))] {
            let output = scratch.path("\(name).mp4")
            try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: edit, encoding: Self.lossless, output: output)
            let error = ColourBars.maxError(try ColourBars.shown(output), expected)
            #expect(error <= 1, "\(encoding), \(name): \(error) levels")
            #expect(try ColourBars.tags(output) == Self.expectedTags(encoding), "\(name)")
        }
    }

    @Test(arguments: encodings)
    func aVideosThumbnailShowsItsColours(encoding: ColourBars.Encoding) throws {
        let scratch = TemporaryDirectory()
        let source = scratch.path("bars.mp4")
        try ColourBars.make(source, encoding)
        let frame = try FrameGrabber.representativeFrame(source, maxDimension: 320)
        let pixels = [UInt8](frame.data)
        let bars = ColourBars.colours.count
        let shown = (0..<bars).map { bar in
            let offset = ((frame.height / 2) * frame.width + (2 * bar + 1) * frame.width / (2 * bars)) * 3
            return SIMD3(Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2]))
        }
        let error = ColourBars.maxError(shown, try ColourBars.shown(source))
        print("thumbnail of \(encoding): max error \(error) levels")
        #expect(error <= 1, "\(encoding): \(shown)")
    }
}
