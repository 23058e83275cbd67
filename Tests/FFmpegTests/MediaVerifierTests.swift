import FFmpeg
import Foundation
import MediaInputLimits
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

    @Test func aKeyframeCheckCountsEveryFrameLikeAFullDecode() throws {
        let full = try MediaVerifier.verify(fixtures.clip, depth: .everyFrame)
        let quick = try MediaVerifier.verify(fixtures.clip, depth: .keyframes)
        #expect(quick == full)
    }

    @Test func aKeyframeCheckStillCatchesAFileCutShortInItsData() throws {
        let scratch = fixtures.scratch()
        let cut = try fixtures.truncated(fixtures.fastStartClip, fraction: 0.6, as: "cut.mp4", in: scratch)
        let error = try #require(throws: FFmpegError.self) { try MediaVerifier.verify(cut, depth: .keyframes) }
        #expect(error.kind == .corruptMedia)
    }

    @Test func aKeyframeCheckCatchesADamagedKeyframe() throws {
        let scratch = fixtures.scratch()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixtures.fastStartClip))
        let info = try MediaProbe.probe(fixtures.fastStartClip, scanKeyframes: true)
        #expect(info.keyframes.count == 3)
        // The index comes first in a fast-start file: damage the middle of the data, where keyframes lie.
        let start = bytes.count / 3
        bytes.replaceSubrange(start..<(start + bytes.count / 3), with: Data(repeating: 0xFF, count: bytes.count / 3))
        let damaged = scratch.path("damaged.mp4")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        #expect(throws: FFmpegError.self) { try MediaVerifier.verify(damaged, depth: .keyframes) }
    }
}
