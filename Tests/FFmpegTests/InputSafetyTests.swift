import FFmpeg
import Foundation
import MediaInputLimits
import Testing

@Suite struct InputSafetyTests {
    let fixtures = Fixtures.shared

    @Test func aTextFileNamedMP4IsRefused() throws {
        let (folder, path) = try fixtures.textFile("notes.mp4", "These are meeting notes, not a video.\n")
        let error = try #require(throws: FFmpegError.self) { try MediaProbe.probe(path, scanKeyframes: false) }
        #expect(error.kind == .unsupportedFormat)
        #expect(error.category == .invalidInput)
        #expect(error.message.contains(path))
        #expect(throws: FFmpegError.self) { try MediaVerifier.verify(path) }
        _ = folder
    }

    @Test func anHLSPlaylistPointingAtALocalFileIsRefusedByTheWhitelist() throws {
        let (folder, playlist) = try fixtures.textFile("list.m3u8", """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:3
            #EXTINF:3.0,
            \(fixtures.clip)
            #EXT-X-ENDLIST

            """)
        let error = try #require(throws: FFmpegError.self) { try MediaProbe.probe(playlist, scanKeyframes: false) }
        #expect(error.kind == .unsupportedFormat)
        #expect(error.category == .invalidInput)
        #expect(error.reason.contains("whitelist") || error.reason.contains("not one of"))
        let scratch = fixtures.scratch()
        #expect(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: playlist, from: 0, to: 1, output: scratch.path("x.mp4"))
        }
        _ = folder
    }

    @Test func aContainerLeftOffTheListIsRefused() throws {
        let error = try #require(throws: FFmpegError.self) {
            try MediaProbe.probe(fixtures.clip, limits: MediaLimits(formats: "matroska,webm"), scanKeyframes: false)
        }
        #expect(error.kind == .unsupportedFormat)
    }

    @Test func aMissingFileIsReportedAsUnreadable() throws {
        let error = try #require(throws: FFmpegError.self) {
            try MediaProbe.probe("/nonexistent/clip.mp4", scanKeyframes: false)
        }
        #expect(error.kind == .readFailed)
        #expect(error.message.contains("/nonexistent/clip.mp4"))
    }

    @Test func aURLIsTakenAsALocalFileNameAndNeverFetched() throws {
        for url in ["http://127.0.0.1:9/clip.mp4", "concat:\(fixtures.clip)|\(fixtures.clip)"] {
            let error = try #require(throws: FFmpegError.self) { try MediaProbe.probe(url, scanKeyframes: false) }
            #expect(error.kind == .readFailed, "\(url)")
            #expect(error.posixCode == ENOENT, "\(url)")
        }
    }
}
