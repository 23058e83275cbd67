import EngineTestKit
import FFmpeg
@testable import MediaJobs
import MediaTestKit
import Testing

/// Video frames rendered on the GPU are read and written with the source's own matrix and range,
/// as on the CPU path: bars of known colours (BT.601, BT.709, untagged, full-range BT.709, made
/// by the `ffmpeg` tool) come out showing the source's colours, edited by the 8-bit definition
/// worked out by hand, and tagged as the source is. Output is lossless, so what is left is the
/// 8-bit round trip YUV → RGB → YUV of a colour edit (measured on lavapipe: 1 level; a crop
/// alone stays in YUV and gives the decoded values back, 0 levels); a GPU may round a YUV step the
/// other way (a chroma step is up to 1.9 levels of red or blue), hence 4.
@Suite struct GPUVideoColourTests {
    static let lossless = VideoEncoding(codec: "libx264", crf: 0, preset: "ultrafast", threads: 1)

    @Test(arguments: [ColourBars.Encoding.bt601, .bt709, .untagged, .bt709FullRange])
    func framesRenderedOnTheGPUKeepTheSourcesMatrixAndRange(encoding: ColourBars.Encoding) throws {
        let renderer = try #require(GPUSupport.selection.renderer, "no Vulkan device could render: \(GPUSupport.selection.report.reason)")
        let scratch = TemporaryDirectory()
        let source = scratch.path("bars.mp4")
        try ColourBars.make(source, encoding)
        let shown = try ColourBars.shown(source)
        let edits: [(String, VideoEdit, (SIMD3<Double>) -> SIMD3<Double>)] = [
            ("colour", VideoEdit(exposure: 0.2, contrast: 1.1, saturation: 1.3),
             { ColourDefinition.apply(exposure: 0.2, contrast: 1.1, saturation: 1.3, to: $0) }),
            ("crop", VideoEdit(crop: .init(x: 0, y: 8, width: 320, height: 32)), { $0 }),
        ]
        for (name, edit, expected) in edits {
            let output = scratch.path("\(name).mp4")
            let rendered = RenderedFlag()
            try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: edit, encoding: Self.lossless, output: output,
                                      renderer: GPUPictureRenderer.factory({ renderer }, rendered: rendered))
            #expect(rendered.isSet, "\(name) was not rendered on the GPU")
            let error = ColourBars.maxError(try ColourBars.shown(output), shown.map(expected))
            print("GPU \(name) on \(encoding): max error \(error) levels")
            #expect(error <= 4, "\(encoding), \(name): \(error) levels")
            let tags = try ColourBars.tags(output)
            #expect(tags["color_space"] == (encoding.tag ?? "smpte170m") && tags["color_range"] == (encoding.fullRange ? "pc" : "tv"),
                    "\(encoding), \(name): \(tags)")
        }
    }
}
