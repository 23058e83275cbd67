import EngineTestKit
import FFmpeg
@testable import MediaJobs
import MediaTestKit
import Synchronization
import Testing

/// A segment asks for the GPU only when its edit changes its pictures, so that a compress of
/// videos as they are never starts GPU probing nor waits for it (issue 15: the probe child took
/// CPU time from the first encoders). Needs no GPU: the provider only counts the asks.
@Suite struct SegmentGPURequestTests {
    private static let encoding = VideoEncoding(codec: "libx264", crf: 23, preset: "ultrafast", threads: 1)

    /// Encodes `source` with `edit` through the factory of a provider that has no GPU to give.
    /// - Returns: how many times the provider was asked, and whether the segment rendered on the GPU.
    private func asks(_ edit: VideoEdit, source: String, output: String) throws -> (asks: Int, rendered: Bool) {
        let asks = Mutex(0), rendered = RenderedFlag()
        let factory = GPUPictureRenderer.factory({ asks.withLock { $0 += 1 }; return nil }, rendered: rendered)
        try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: edit, encoding: Self.encoding, output: output,
                                  renderer: factory)
        return (asks.withLock { $0 }, rendered.isSet)
    }

    @Test func aSegmentThatPassesItsPicturesThroughNeverAsksForTheGPU() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.path("clip.mp4")
        try MediaFixtures.clip(source, size: "160x96", seconds: 1, audio: false)
        for (name, edit) in [("identity", VideoEdit.identity), ("fits already", VideoEdit(maxWidth: 320))] {
            let result = try asks(edit, source: source, output: scratch.path("\(name).mp4"))
            #expect(result.asks == 0, "\(name): the GPU was asked for \(result.asks) times")
            #expect(!result.rendered, "\(name)")
        }
    }

    @Test func aResizedSegmentAsksOnceAndRendersOnTheCPUWhenNoGPUIsGiven() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.path("clip.mp4")
        try MediaFixtures.clip(source, size: "160x96", seconds: 1, audio: false)
        let output = scratch.path("smaller.mp4")
        let result = try asks(VideoEdit(maxWidth: 80), source: source, output: output)
        #expect(result.asks == 1)
        #expect(!result.rendered)
        let video = try #require(try MediaProbe.probe(output, scanKeyframes: false).video)
        #expect((video.width, video.height) == (80, 48))
    }
}
