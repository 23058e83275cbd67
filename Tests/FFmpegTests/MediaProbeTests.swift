import FFmpeg
import MediaInputLimits
import Testing

@Suite struct MediaProbeTests {
    let fixtures = Fixtures.shared

    @Test func probeReportsDurationSizeRateAndStreams() throws {
        let info = try MediaProbe.probe(fixtures.clip, limits: MediaLimits(), scanKeyframes: false)
        #expect(abs(info.duration - 3) < 0.05)
        #expect(info.formatName.contains("mp4"))
        let video = try #require(info.video)
        #expect(video.width == 320 && video.height == 240)
        #expect(abs(video.frameRate - 25) < 0.001)
        #expect(video.codecName == "h264")
        #expect(video.rotation == 0)
        let audio = try #require(info.audio)
        #expect(audio.codecName == "aac")
        #expect(audio.sampleRate == 44100 && audio.channels == 1)
        #expect(info.keyframes.isEmpty)
    }

    @Test func keyframeScanFindsOneKeyframePerSecondAndCountsFrames() throws {
        let info = try MediaProbe.probe(fixtures.clip, limits: MediaLimits(), scanKeyframes: true)
        #expect(info.keyframes == [0, 1, 2])
        #expect(info.video?.frameCount == 75)
    }

    @Test func probeReadsTheDisplayRotation() throws {
        let video = try #require(try MediaProbe.probe(fixtures.rotated, scanKeyframes: false).video)
        // Clockwise degrees, as the ffmpeg tool's autorotation reads the matrix (transpose=cclock).
        #expect(video.rotation == 270)
        #expect(video.displayWidth == 240 && video.displayHeight == 320)
    }

    @Test func probeRefusesPicturesAboveThePixelLimit() throws {
        let error = try #require(throws: FFmpegError.self) {
            try MediaProbe.probe(fixtures.clip, limits: MediaLimits(maxPixels: 320 * 239), scanKeyframes: false)
        }
        #expect(error.kind == .tooManyPixels)
        #expect(error.category == .invalidInput)
        #expect(error.message.contains(fixtures.clip))
    }
}
