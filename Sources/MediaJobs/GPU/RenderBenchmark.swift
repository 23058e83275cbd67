import FFmpeg
import Foundation
import GPURender
import PhotoJobs
import Vips

/// Measures this machine's render throughput on each path, by the code jobs use: a 6-megapixel
/// photo fitted to 1600 pixels with a colour change, and 1080p video frames scaled to 720p with
/// a colour change. Uploads and downloads are counted. For `mediajob probe --benchmark`.
public enum RenderBenchmark {
    /// One path's figures.
    public typealias Figures = RenderFigures

    /// Figures for the CPU path, and for the GPU path when `gpu` is given.
    /// - Parameter rounds: photos rendered, and frames ÷ 8, per path.
    public static func run(gpu: GPURenderer?, rounds: Int = 4) throws -> (cpu: Figures, gpu: Figures?) {
        try MediaLibraries.initialize()
        var edits = ProjectManifest.Edits()
        edits.maxWidth = 1600
        edits.exposure = 0.2
        edits.saturation = 1.2
        let photo = try syntheticPhoto(width: 3000, height: 2000)
        let videoEdit = VideoEdit(maxHeight: 720, exposure: 0.2, saturation: 1.2)
        let frames = rounds * 8
        func figures(photos: () throws -> Void, video: PictureRendererFactory?) throws -> Figures {
            let start = Date()
            for _ in 0..<rounds { try photos() }
            let photoSeconds = Date().timeIntervalSince(start)
            let videoSeconds = try FrameRenderTiming.seconds(width: 1920, height: 1080, frames: frames, edit: videoEdit, renderer: video)
            return Figures(photoMegapixelsPerSecond: Double(rounds) * 6 / photoSeconds,
                           framesPerSecond: Double(frames) / videoSeconds,
                           frameMegapixelsPerSecond: Double(frames) * 1920 * 1080 / 1e6 / videoSeconds)
        }
        let cpu = try figures(photos: { _ = try MediaSettings.apply(edits, to: photo).pixels() }, video: nil)
        guard let gpu else { return (cpu, nil) }
        _ = try GPUPhotoEdits.apply(edits, to: photo, on: gpu) // builds the buffers once, as a job's first chunk does
        let onGPU = try figures(photos: { _ = try GPUPhotoEdits.apply(edits, to: photo, on: gpu).pixels() },
                                video: GPUPictureRenderer.factory({ gpu }, rendered: RenderedFlag()))
        return (cpu, onGPU)
    }

    /// A decoded photo-like picture in memory.
    private static func syntheticPhoto(width: Int, height: Int) throws -> VipsImage {
        try VipsImage.fromPixels(BenchmarkPicture.rgb(width: width, height: height), width: width, height: height, bands: 3)
    }
}
