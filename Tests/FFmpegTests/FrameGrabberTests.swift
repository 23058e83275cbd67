import FFmpeg
import Foundation
import MediaInputLimits
import Testing

@Suite struct FrameGrabberTests {
    let fixtures = Fixtures.shared

    /// The variance of Rec.601 luma over packed RGB24.
    private func lumaVariance(_ data: Data) -> Double {
        var sum = 0.0, squares = 0.0
        let count = data.count / 3
        for pixel in 0..<count {
            let luma = 0.299 * Double(data[pixel * 3]) + 0.587 * Double(data[pixel * 3 + 1])
                + 0.114 * Double(data[pixel * 3 + 2])
            sum += luma
            squares += luma * luma
        }
        let mean = sum / Double(count)
        return squares / Double(count) - mean * mean
    }

    @Test func aClipThatOpensInBlackGivesAFrameThatIsNotBlack() throws {
        // The first frame, for comparison, is black.
        #expect(lumaVariance(try MediaReference.firstFrameRGB(fixtures.blackStart)) < 1)
        let frame = try FrameGrabber.representativeFrame(fixtures.blackStart, limits: MediaLimits(), maxDimension: 160)
        #expect(frame.width == 160 && frame.height == 120)
        #expect(frame.data.count == 160 * 120 * 3)
        #expect(lumaVariance(frame.data) > 100)
    }

    @Test func theFrameIsUprightAndNeverEnlarged() throws {
        let frame = try FrameGrabber.representativeFrame(fixtures.rotated, maxDimension: 1000)
        #expect(frame.width == 240 && frame.height == 320)
    }

    @Test func aTooSmallDimensionIsRefused() throws {
        let error = try #require(throws: FFmpegError.self) {
            try FrameGrabber.representativeFrame(fixtures.clip, maxDimension: 1)
        }
        #expect(error.kind == .invalidRequest)
    }
}
