import FoundationEssentials
import Glibc
import GPURender

/// The GPU path's throughput, uploads and downloads counted: photos (a 6-megapixel picture fitted
/// to 1600 pixels with a colour change, as `probe --benchmark` renders) and 1080p → 720p video
/// pictures in batches from their YUV planes, with a colour change and without.
enum Throughput {
    struct Figures: Codable {
        var photoMegapixelsPerSecond: Double
        var photosRendered: Int
        var photoBytesTransferred: Int
        var framesPerSecond: Double
        var framesRendered: Int
        var frameBytesTransferred: Int
        var planesFramesPerSecond: Double
        var planesFramesRendered: Int
        var planesFrameBytesTransferred: Int
    }

    static func run(on renderer: GPURenderer, seconds: Double) throws -> Figures {
        let (width, height) = (3000, 2000)
        let photo = BenchmarkPicture.rgb(width: width, height: height)
        let recipe = RenderRecipe(sourceWidth: width, sourceHeight: height, channels: 3, width: 1600, height: 1067,
                                  exposure: 0.2, saturation: 1.2)
        var rgba = Data(count: 1600 * 1067 * 4)
        let photos = try repeated(for: seconds) {
            try photo.withUnsafeBytes { source in try rgba.withUnsafeMutableBytes { try renderer.render(recipe, pixels: source, into: $0) } }
            return 1
        }

        let frame = RenderRecipe(sourceWidth: 1920, sourceHeight: 1080, channels: 1, width: 1280, height: 720,
                                 exposure: 0.2, saturation: 1.2)
        var planesFrame = frame
        (planesFrame.exposure, planesFrame.saturation) = (0, 1)
        let pictureBytes = YUVLayout(width: 1280, height: 720).pictureBytes
        let yuv = 1920 * 1080 + 2 * 960 * 540
        let frames = try batches(frame, bytes: yuv, on: renderer, seconds: seconds)
        let planes = try batches(planesFrame, bytes: yuv, on: renderer, seconds: seconds)
        return Figures(photoMegapixelsPerSecond: Double(photos.count) * 6 / photos.seconds, photosRendered: photos.count,
                       photoBytesTransferred: photo.count + rgba.count,
                       framesPerSecond: Double(frames.count) / frames.seconds, framesRendered: frames.count,
                       frameBytesTransferred: yuv + pictureBytes,
                       planesFramesPerSecond: Double(planes.count) / planes.seconds, planesFramesRendered: planes.count,
                       planesFrameBytesTransferred: yuv + pictureBytes)
    }

    /// Renders batches of eight (or what fits) 1080p pictures of `bytes` bytes each, filled with a pattern.
    private static func batches(_ recipe: RenderRecipe, bytes: Int, on renderer: GPURenderer,
                                seconds: Double) throws -> (count: Int, seconds: Double) {
        let batch = max(1, renderer.batchCapacity(for: recipe, input: .yuv420, output: .yuv420(.bt709), limit: 8))
        let picture = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 1920) }
        var checksum = 0
        return try repeated(for: seconds) {
            try renderer.render(recipe, count: batch, input: .yuv420, output: .yuv420(.bt709), fill: { _, upload in
                picture.withUnsafeBytes { upload.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            }, read: { _, planes in checksum &+= Int(planes.load(as: UInt8.self)) })
            return batch
        }
    }

    /// Runs `work` once untimed (buffers are made then), then until `seconds` have passed and at
    /// at least once; `work` returns how many items it did.
    private static func repeated(for seconds: Double, _ work: () throws -> Int) throws -> (count: Int, seconds: Double) {
        _ = try work()
        let start = ContinuousClock.now
        var count = 0, rounds = 0
        while rounds < 1 || ContinuousClock.now - start < .seconds(seconds) {
            count += try work()
            rounds += 1
        }
        let elapsed = ContinuousClock.now - start
        return (count, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
}
