import EngineTestKit
import FFmpeg
import GPURender
@testable import MediaJobs
import MediaTestKit
@testable import PhotoJobs
import XCTest

/// Video frames rendered on the GPU match the CPU path's: both encoded losslessly (x264 at
/// CRF 0) and compared frame by frame. Without a colour change both paths crop, turn and resize
/// the decoded YUV planes, so every frame is within 45 dB, on the sample clip and on the
/// synthetic testsrc2 pattern (made by the `ffmpeg` tool) alike. With a colour change both go
/// through RGB but subsample chroma differently (swscale's filter on the CPU, a 2 × 2 mean on
/// the GPU), which testsrc2's saturated colour edges show most: every frame is within 40 dB.
final class VideoParityTests: XCTestCase {
    static let tolerance = ParityTolerance.video
    static let colourTolerance = ParityTolerance.videoColour

    private let folder = TemporaryDirectory()

    private func assertParity(_ edit: VideoEdit, source: String, from start: Double = 0, to end: Double? = nil,
                              tolerance: Double = tolerance, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let lossless = VideoEncoding(codec: "libx264", crf: 0, preset: "ultrafast", threads: 1)
        let cpu = folder.path("cpu-\(what).mp4"), gpu = folder.path("gpu-\(what).mp4")
        let cpuFrames = try SegmentEncoder.encode(source: source, from: start, to: end, edit: edit, encoding: lossless, output: cpu)
        let rendered = RenderedFlag(), renderer = try GPUSupport.renderer()
        let gpuFrames = try SegmentEncoder.encode(source: source, from: start, to: end, edit: edit, encoding: lossless, output: gpu,
                                                  renderer: GPUPictureRenderer.factory({ renderer }, rendered: rendered))
        XCTAssertTrue(rendered.isSet, "\(what) was not rendered on the GPU", file: file, line: line)
        XCTAssertEqual(gpuFrames, cpuFrames, what, file: file, line: line)
        let worst = try MediaFixtures.psnr(gpu, against: cpu, statistic: "min")
        print("parity \(what): worst frame \(worst) dB")
        XCTAssertGreaterThanOrEqual(worst, tolerance, "\(what): worst frame \(worst) dB", file: file, line: line)
    }

    func testEachOperationAloneAndCombined() throws {
        let clip = folder.path("clip.mp4")
        try MediaFixtures.clip(clip, size: "320x240", seconds: 1, audio: false)
        try assertParity(VideoEdit(crop: .init(x: 16, y: 8, width: 200, height: 160)), source: clip, "crop")
        try assertParity(VideoEdit(quarterTurns: 1), source: clip, "rotate 90")
        try assertParity(VideoEdit(maxHeight: 160), source: clip, "resize")
        try assertParity(VideoEdit(crop: .init(x: 11, y: 7, width: 291, height: 203), quarterTurns: 3, maxHeight: 120), source: clip,
                         "crop, rotate and resize at odd offsets")
        try assertParity(VideoEdit(exposure: 0.3, contrast: 1.1, saturation: 1.3), source: clip, tolerance: Self.colourTolerance,
                         "colour")
        try assertParity(VideoEdit(crop: .init(x: 10, y: 10, width: 300, height: 200), quarterTurns: 3, maxHeight: 120,
                                   exposure: -0.2, contrast: 1.2, saturation: 0.7), source: clip, tolerance: Self.colourTolerance,
                         "combined")
    }

    func testSampleClipWithItsEdits() throws {
        let manifest = try ProjectLoader.load(GPUSupport.sample)
        let asset = try XCTUnwrap(manifest.assets.first { $0.path.hasSuffix(".mp4") })
        let edit = MediaSettings.videoEdit(asset.edits, maxHeight: manifest.export.video.maxHeight)
        // Half a second of it: lavapipe renders a 720p frame in about half a second.
        try assertParity(edit, source: GPUSupport.sample.appendingPathComponent(asset.path).path, from: 1, to: 1.5,
                         "sample clip")
    }
}
