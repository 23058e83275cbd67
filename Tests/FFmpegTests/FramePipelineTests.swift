import CFFmpegShim
import EngineTestKit
@testable import FFmpeg
import MediaTestKit
import Testing

@Suite struct FramePipelineTests {
    init() { FFmpegTestSetup.ready }

    private func pipeline(_ edit: VideoEdit, width: Int, height: Int, output: AVPixelFormat = AV_PIX_FMT_YUV420P)
        throws -> FramePipeline
    {
        let geometry = try EditGeometry(storedWidth: width, storedHeight: height, displayRotation: 0, edit: edit,
                                        evenSize: output == AV_PIX_FMT_YUV420P, path: "test")
        return FramePipeline(geometry: geometry, edit: edit, colour: .bt709, output: output, path: "test")
    }

    @Test func anIdentityEditHandsTheDecodedPictureStraightToTheEncoder() throws {
        let frame = try Frame(width: 64, height: 48, format: AV_PIX_FMT_YUV420P, path: "test")
        #expect(try pipeline(.identity, width: 64, height: 48).process(frame) === frame)
    }

    @Test func aColourEditWorksOnACopy() throws {
        let frame = try Frame(width: 64, height: 48, format: AV_PIX_FMT_YUV420P, path: "test")
        let result = try pipeline(VideoEdit(saturation: 0.5), width: 64, height: 48).process(frame)
        #expect(result !== frame)
        #expect(result.pixelFormat == AV_PIX_FMT_YUV420P && result.width == 64 && result.height == 48)
    }

    @Test(arguments: [
        VideoEdit(exposure: 1), VideoEdit(contrast: 1.7), VideoEdit(saturation: 2.2),
        VideoEdit(exposure: -0.7, contrast: 0.6, saturation: 0.3), VideoEdit(exposure: 0.4, contrast: 1.3, saturation: 1.6),
    ])
    func colourMatchesTheEightBitDefinitionExactly(edit: VideoEdit) throws {
        let width = 16, height = 16
        let frame = try Frame(width: Int32(width), height: Int32(height), format: AV_PIX_FMT_RGB24, path: "test")
        let (pixels, stride) = frame.plane(0)
        var inputs: [(Double, Double, Double)] = []
        for y in 0..<height {
            for x in 0..<width {
                let rgb = (UInt8((x * 16 + y) % 256), UInt8((y * 16 + x * 3) % 256), UInt8((x * y * 7) % 256))
                let p = pixels! + y * Int(stride) + x * 3
                (p[0], p[1], p[2]) = rgb
                inputs.append((Double(rgb.0), Double(rgb.1), Double(rgb.2)))
            }
        }
        let result = try pipeline(edit, width: width, height: height, output: AV_PIX_FMT_RGB24).process(frame)
        let (out, outStride) = result.plane(0)
        var mismatches = 0
        for y in 0..<height {
            for x in 0..<width {
                let expected = ColourDefinition.apply(edit, to: inputs[y * width + x])
                let p = out! + y * Int(outStride) + x * 3
                if Double(p[0]) != expected.0 || Double(p[1]) != expected.1 || Double(p[2]) != expected.2 {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func aQuarterTurnMovesTheTopLeftPixelToTheTopRight() throws {
        let frame = try Frame(width: 4, height: 2, format: AV_PIX_FMT_RGB24, path: "test")
        let (pixels, stride) = frame.plane(0)
        for y in 0..<2 { for x in 0..<4 { for c in 0..<3 { pixels![y * Int(stride) + x * 3 + c] = UInt8(y * 4 + x) } } }
        let result = try pipeline(VideoEdit(quarterTurns: 1), width: 4, height: 2, output: AV_PIX_FMT_RGB24)
            .process(frame)
        #expect(result.width == 2 && result.height == 4)
        let (out, outStride) = result.plane(0)
        // Turned clockwise, the stored bottom-left comes to the top-left and the top-left to the top-right.
        #expect(out![0] == 4)
        #expect(out![3] == 0)
        #expect(out![3 * Int(outStride) + 3] == 3)
    }
}
