import FFmpeg
import Foundation
import Testing

@Suite struct MediaVerifierTests {
    let fixtures = Fixtures.shared

    @Test func aWholeFileVerifiesWithItsFramesSizeAndAudio() throws {
        let verified = try MediaVerifier.verify(fixtures.clip, limits: MediaLimits())
        #expect(verified == VerifiedMedia(frames: 75, duration: verified.duration, width: 320, height: 240, hasAudio: true))
        #expect(abs(verified.duration - 3) < 0.05)
    }

    @Test func aFileCutShortBeforeItsIndexFailsAsInvalidInputNamingTheFile() throws {
        let scratch = fixtures.scratch()
        let cut = try fixtures.truncated(fixtures.clip, fraction: 0.6, as: "cut.mp4", in: scratch)
        for operation in [{ _ = try MediaVerifier.verify(cut) }, { _ = try MediaProbe.probe(cut, scanKeyframes: true) }] {
            let error = try #require(throws: FFmpegError.self) { try operation() }
            #expect(error.category == .invalidInput)
            #expect(error.message.contains(cut))
            #expect(error.reason.contains("Invalid data"))
        }
    }

    @Test func aFastStartFileCutShortInItsDataFailsAsCorrupt() throws {
        let scratch = fixtures.scratch()
        let cut = try fixtures.truncated(fixtures.fastStartClip, fraction: 0.6, as: "cut.mp4", in: scratch)
        let error = try #require(throws: FFmpegError.self) { try MediaVerifier.verify(cut) }
        #expect(error.kind == .corruptMedia)
        #expect(error.category == .invalidInput)
        #expect(error.message.contains(cut))
        let probeError = try #require(throws: FFmpegError.self) { try MediaProbe.probe(cut, scanKeyframes: true) }
        #expect(probeError.category == .invalidInput)
    }
}
