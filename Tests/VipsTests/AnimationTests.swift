import EngineTestKit
import Foundation
import MediaTestKit
import Testing
import Vips

@Suite struct AnimationTests {
    let folder = TemporaryDirectory()

    init() throws {
        try VipsTestSupport.start()
    }

    private func gif() throws -> String {
        let path = folder.path("anim.gif")
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5", "-t", "2", path])
        return path
    }

    @Test func anAnimationIsLoadedWithEveryFrameAndEditedFrameByFrame() throws {
        let path = try gif()
        let still = try VipsImage.load(path)
        #expect(still.isAnimated && still.frameCount == 10 && still.height == 48)
        let frames = try VipsImage.loadAnimation(path)
        #expect(frames.height == 480)
        let turned = try frames.mappingFrames { try $0.rotate(quarterTurns: 1) }
        #expect(turned.width == 48 && turned.height == 640)
        let output = folder.path("turned.webp")
        try turned.save(to: output, format: .webp)
        #expect(try VipsImage.load(output).frameCount == 10)
        #expect(try VipsImage.load(output).width == 48)
    }

    @Test func thePixelLimitCountsEveryFrame() throws {
        let path = try gif()
        let error = vipsError { _ = try VipsImage.loadAnimation(path, limits: ImageLimits(maxPixels: 64 * 48 * 5)) }
        #expect(error?.kind == .tooManyPixels(width: 64, height: 480, limit: 64 * 48 * 5))
        #expect(try VipsImage.load(path, limits: ImageLimits(maxPixels: 64 * 48 * 5)).frameCount == 10, "one frame fits")
    }

    @Test func onlyGIFAndWebPContentCouldBeAnimatedWhateverTheName() throws {
        let gif = try gif()
        let webp = folder.path("anim.webp")
        try MediaFixtures.ffmpeg(["-i", gif, "-loop", "0", webp])
        let disguised = folder.path("anim-named.jpg")
        try FileManager.default.copyItem(atPath: gif, toPath: disguised)
        let jpeg = folder.path("still.jpg"), png = folder.path("still.png"), short = folder.path("short.gif")
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", jpeg])
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", png])
        try Data("GIF".utf8).write(to: URL(fileURLWithPath: short))
        #expect(VipsImage.couldBeAnimated(gif) && VipsImage.couldBeAnimated(webp) && VipsImage.couldBeAnimated(disguised))
        #expect(try VipsImage.load(webp).isAnimated, "ffmpeg made an animated WebP, as the check assumes")
        for still in [jpeg, png, short, folder.path("missing.gif")] {
            #expect(!VipsImage.couldBeAnimated(still), "\(still)")
        }
    }
}
