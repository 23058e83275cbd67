import EngineTestKit
import Foundation
import JobEngine
import MediaJobs
import PhotoJobs
import TaskContract
import Testing

/// A thumbnail job run where there is no FFmpeg (`mediajob-photo`) makes the photos' thumbnails
/// and, at a video, pauses with nothing guessed; a program with FFmpeg then finishes it.
@Suite struct PhotoOnlyInputsTests {
    private let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Media/sample")

    @Test func aVideoMetAsTheJobRunsPausesItAndAProgramWithFFmpegFinishesIt() async throws {
        let folder = TemporaryDirectory()
        let store = InMemoryJobStore()
        let locks = folder.url.appendingPathComponent("locks")
        let items = try InputCollector.collect(["small-640x480.jpg", "clip-720p30-4s.mp4"].map { sample.appendingPathComponent($0).path })
        // With --skip-bad, planning classifies nothing: the job meets the video as it runs.
        let spec = ThumbnailJob.Spec(items: items, size: 64, format: "jpeg", quality: 80,
                                     settings: BatchSettings(output: folder.path("thumbs"), skipBad: true))
        let photos = PhotoOnlyInputs()
        let photoProgram = try JobScheduler(store: store, lockDirectory: locks, maxConcurrentJobs: 1)
        try MediaJobKinds.registerThumbnails(on: photoProgram, environment: MediaEnvironment(), videos: photos)
        let request = try TaskRequest(identifier: MediaJobKinds.identifier("thumbnail"), title: spec.title, subtitle: "starting")
        guard case .created(let handle) = try photoProgram.submit(request, spec: spec) else {
            Issue.record("expected a new job")
            return
        }
        #expect(await photoProgram.run(handle) == .paused)
        #expect(photos.needsMediaProgram)
        #expect(!FileManager.default.fileExists(atPath: folder.path("thumbs")))

        let mediaProgram = try JobScheduler(store: store, lockDirectory: locks, maxConcurrentJobs: 1)
        try MediaJobKinds.register(on: mediaProgram, environment: MediaEnvironment())
        #expect(await mediaProgram.run(try mediaProgram.resume(handle.id)) == .completed)
        struct Index: Decodable {
            struct Entry: Decodable { var output: String }
            var thumbnails: [Entry]
            var skipped: [String]
        }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path("thumbs/index.json"))))
        #expect(index.thumbnails.map(\.output) == ["small-640x480.jpg", "clip-720p30-4s.jpg"])
        #expect(index.skipped == [])
    }
}
