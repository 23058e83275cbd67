import Foundation
import MediaTestKit
import PostgresTestKit
import Testing
import Vips

/// Thumbnail runs start in `mediajob-photo`, which links libvips without FFmpeg's libraries, and go
/// to `mediajob-media` when an input is anything but a photo (issue 15: FFmpeg's libraries were
/// a quarter of a thumbnail run's peak memory).
@Suite struct PhotoProgramTests {
    private func program(_ name: String) -> URL {
        CLIProcess.binary.deletingLastPathComponent().appendingPathComponent(name)
    }

    private let ffmpegLibraries = ["libavcodec", "libavformat", "libavfilter", "libavutil", "libswscale", "libswresample",
                                   "libpostproc", "libavdevice"]

    /// Runs `mediajob thumbnail arguments` under strace; the result and the programs it became, in order.
    private func tracedThumbnail(_ fixture: CLIFixture, _ arguments: [String]) throws -> (CLIProcess.Result, [String]) {
        let trace = fixture.folder.path("exec.trace")
        let run = try fixture.run("thumbnail", arguments, launcher: execTrace(trace))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let programs = ["mediajob-photo", "mediajob-media"].map { program($0).path }
        let execs = lines.compactMap { line in
            programs.first { line.contains("execve(\"\($0)\", [\"\($0)\", \"thumbnail\", \(arguments.map { "\"\($0)\"" }.joined(separator: ", "))") }
        }
        return (run, execs.map { URL(fileURLWithPath: $0).lastPathComponent })
    }

    @Test func mediajobPhotoLoadsLibvipsAndNoFFmpegLibrary() throws {
        let loaded = try MediaFixtures.run("/usr/bin/ldd", [program("mediajob-photo").path]).output
        #expect(loaded.contains("libvips.so"), "\(loaded)")
        #expect(ffmpegLibraries.filter { loaded.contains($0) } == [], "\(loaded)")
        let media = try MediaFixtures.run("/usr/bin/ldd", [program("mediajob-media").path]).output
        #expect(media.contains("libavcodec"), "the check would see FFmpeg where it is: \(media)")
    }

    @Test func aThumbnailRunOfPhotosRunsInMediajobPhotoAndMatchesVips() throws {
        let fixture = CLIFixture()
        let photos = ["landscape-3000x2000.jpg", "rotated-exif6-1600x1200.jpg", "overlay-alpha-480x480.png"]
        let output = fixture.folder.path("thumbs")
        let (run, programs) = try tracedThumbnail(fixture, photos.map { sampleProject.appendingPathComponent($0).path }
            + ["--output", output, "--size", "128", "--format", "png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(programs == ["mediajob-photo"])
        for photo in photos {
            let name = (photo as NSString).deletingPathExtension
            let reference = fixture.folder.path("reference-\(name).png")
            try PhotoFixtures.vips(["thumbnail", sampleProject.appendingPathComponent(photo).path, reference, "128"])
            #expect(try PhotoFixtures.meanDifference("\(output)/\(name).png", reference) <= 2, "\(photo)")
        }
        #expect(FileManager.default.fileExists(atPath: "\(output)/contact-sheet.jpg"))
    }

    /// By its name (at once) or by its content (after the photos' headers are read).
    @Test(arguments: ["clip.mp4", "clip.jpg"])
    func aRunWithAVideoAmongPhotosGoesToMediajobMediaWithTheSameArguments(videoName: String) throws {
        let fixture = CLIFixture()
        let inputs = fixture.folder.path("inputs")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        for (source, name) in [("small-640x480.jpg", "a.jpg"), ("clip-720p30-4s.mp4", videoName), ("portrait-1200x1800.jpg", "z.jpg")] {
            try FileManager.default.copyItem(atPath: sampleProject.appendingPathComponent(source).path, toPath: "\(inputs)/\(name)")
        }
        let output = fixture.folder.path("thumbs")
        let (run, programs) = try tracedThumbnail(fixture, [inputs, "--output", output, "--size", "128"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(programs == ["mediajob-photo", "mediajob-media"])
        struct Index: Decodable {
            struct Entry: Decodable { var output: String; var width: Int; var height: Int }
            var thumbnails: [Entry]
        }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/index.json")))
        #expect(index.thumbnails.map(\.output) == ["a.jpg", "clip.jpg", "z.jpg"])
        #expect(index.thumbnails.allSatisfy { max($0.width, $0.height) == 128 })
        #expect(FileManager.default.fileExists(atPath: "\(output)/contact-sheet.jpg"))
        let jobs = try fixture.run("jobs", ["--all", "--json"])
        let listed = try JSONSerialization.jsonObject(with: Data(jobs.stdout.utf8)) as? [Any]
        #expect(listed?.count == 1, "one job, stored once: \(jobs.stdout)")
    }

    /// Two copies of a photo, `a.jpg` and `b.jpg`, in the fixture's folder; their paths.
    private func twoPhotos(in fixture: CLIFixture) throws -> (photo: String, changing: String) {
        let photo = fixture.folder.path("a.jpg"), changing = fixture.folder.path("b.jpg")
        for copy in [photo, changing] {
            try FileManager.default.copyItem(atPath: sampleProject.appendingPathComponent("small-640x480.jpg").path, toPath: copy)
        }
        return (photo, changing)
    }

    /// Replaces the photo at `path` with a video under the same name.
    private func turnIntoAVideo(_ path: String) throws {
        try turn(path, into: sampleProject.appendingPathComponent("clip-720p30-4s.mp4").path)
    }

    /// Replaces the file at `path` with a copy of `replacement`.
    private func turn(_ path: String, into replacement: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: replacement, toPath: path)
    }

    /// The run's outputs are both thumbnails, b.jpg's from the video's frame (not a skipped item),
    /// and the trace shows `mediajob-photo` replaced by `mediajob-media resume` with `option`.
    private func expectHandedOver(output: String, trace: String, carrying option: String) throws {
        struct Index: Decodable {
            struct Entry: Decodable { var output: String }
            var thumbnails: [Entry]
            var skipped: [String]
        }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/index.json")))
        #expect(index.thumbnails.map(\.output) == ["a.jpg", "b.jpg"], "the video's frame, not a skipped item")
        #expect(index.skipped == [])
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let media = program("mediajob-media").path
        #expect(lines.contains { $0.contains("execve(\"\(media)\", [\"\(media)\", \"resume\", \"") && $0.contains("\"\(option)\"") },
                "\(lines)")
    }

    /// The launcher that records every program the run becomes (`execve`) in `trace`, with each
    /// one's whole environment if `environments`.
    private func execTrace(_ trace: String, environments: Bool = false) -> [String] {
        ["/usr/bin/strace", "-f", "-qq"] + (environments ? ["-v"] : []) + ["-s", "4096", "-o", trace, "-e", "trace=execve"]
    }

    /// A photo that turns after the check into a video, or into a HEIC (libvips started without its
    /// plugin modules, both inputs being JPEGs), is not a photo to `mediajob-photo`: the job pauses
    /// and `mediajob-media`, which starts libvips with its modules (no `VIPSHOME` is passed on),
    /// resumes it. How libvips started is read from its own log (`VIPS_INFO`).
    @Test(arguments: ["video", "HEIC"])
    func anInputThatTurnsIntoAVideoOrAHEICAfterTheCheckPausesTheJobAndMediajobMediaResumesIt(kind: String) throws {
        guard kind == "video" || ImageFormat.avif.isAvailable else { return }  // the HEIC is made with libheif's encoder
        let fixture = CLIFixture()
        let (photo, changing) = try twoPhotos(in: fixture)
        var replacement = sampleProject.appendingPathComponent("clip-720p30-4s.mp4").path
        if kind == "HEIC" {
            replacement = fixture.folder.path("made.heic")
            try PhotoFixtures.picture(replacement, width: 300, height: 200)
        }
        let held = try HeldStep(in: fixture.folder)
        let output = fixture.folder.path("thumbs"), trace = fixture.folder.path("exec.trace")
        // With --skip-bad planning reads no input: the chunk is the first to meet b.jpg after the check.
        let job = try fixture.start("thumbnail", [photo, changing, "--output", output, "--size", "128", "--skip-bad"],
                                    environment: held.environment(point: "chunk").merging(["VIPS_INFO": "1"]) { $1 },
                                    launcher: VipsStartLog.withoutVIPSHOME + execTrace(trace, environments: true))
        try #require(held.waitUntil(job, isHeldAt: "mediajob-photo's chunk"))
        try turn(changing, into: replacement)
        held.release()
        // The same fault point holds mediajob-media's chunk too: its environment is the same. Once it
        // says it resumes, mediajob-photo (and its end of the pipe) is gone.
        try #require(job.waitForStderr(containing: "Resuming job"))
        try #require(held.waitUntil(job, isHeldAt: "mediajob-media's resumed chunk"))
        held.release()
        let result = job.finish("the resumed run's end")
        #expect(result.status == 0, "\(result.stderr)")
        try expectHandedOver(output: output, trace: trace, carrying: "--state-dir")
        let started = VipsStartLog(result.stdout)
        #expect(started.searchedDevNull && started.loadedModules, "mediajob-photo without modules, mediajob-media with: \(result.stdout)")
        let media = program("mediajob-media").path
        let resumed = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("execve(\"\(media)\", [\"\(media)\", \"resume\"") }
        #expect(!resumed.isEmpty && resumed.allSatisfy { $0.contains("\"VIPS_INFO=1\"") && !$0.contains("\"VIPSHOME=") },
                "its environment: \(resumed)")
    }

    /// As above with a PostgreSQL store, where the run works on its job under leases as one of the
    /// store's workers: the job pauses in the store and `mediajob-media` resumes it there.
    @Test func withAPostgreSQLStoreAnInputThatTurnsIntoAVideoIsHandedOverToo() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let (photo, changing) = try twoPhotos(in: fixture)
            let held = try HeldStep(in: fixture.folder)
            let output = fixture.folder.path("thumbs"), trace = fixture.folder.path("exec.trace")
            let job = try fixture.start("thumbnail", [photo, changing, "--output", output, "--size", "128", "--skip-bad",
                                                      "--store", schema.storeURL],
                                        environment: held.environment(point: "plan"), launcher: execTrace(trace))
            try #require(held.waitUntil(job, isHeldAt: "mediajob-photo's planning"))
            try turnIntoAVideo(changing)
            held.release()
            let result = job.finish("the resumed run's end")
            #expect(result.status == 0, "\(result.stderr)")
            try expectHandedOver(output: output, trace: trace, carrying: "--store")
        }
    }

    @Test func aCtrlCAsTheJobPausesToBeHandedOverKeepsItPaused() throws {
        let fixture = CLIFixture()
        let (photo, changing) = try twoPhotos(in: fixture)
        // Held as the job is planned (after the check that sends videos to mediajob-media), and again
        // once the chunk has met b.jpg as a video and the job is about to pause for the hand-over.
        let planned = try HeldStep(in: fixture.folder, name: "plan.fifo")
        let handingOver = try HeldStep(in: fixture.folder, name: "hand-over.fifo")
        let output = fixture.folder.path("thumbs")
        let job = try fixture.start("thumbnail", [photo, changing, "--output", output, "--size", "128", "--skip-bad"],
                                    environment: ["MEDIAJOB_FAULT": [planned.fault(point: "plan"),
                                                                     handingOver.fault(point: "hand-over")].joined(separator: ",")])
        try #require(planned.waitUntil(job, isHeldAt: "mediajob-photo's planning"))
        try turnIntoAVideo(changing)
        planned.release()
        try #require(handingOver.waitUntil(job, isHeldAt: "mediajob-photo's pause for the hand-over"))
        job.send(SIGINT)
        try #require(job.waitForStderr(containing: "Stopping at the next chunk boundary"))
        handingOver.release()
        let result = job.finish("the paused run's end")
        #expect(result.status == 75, "\(result.stderr)")
        #expect(!result.stderr.contains("Resuming job"), "the pause the person asked for was overridden: \(result.stderr)")
        let jobs = try fixture.run("jobs", [])
        #expect(jobs.stdout.contains("paused"), "\(jobs.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func withoutMediajobPhotoAThumbnailRunSaysWhatToInstall() throws {
        let fixture = CLIFixture()
        let alone = fixture.folder.path("alone")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        // Copies of mediajob and mediajob-media in a folder of their own, run there.
        let copy = ["/bin/sh", "-c", "cp \"$0\" \"\(program("mediajob-media").path)\" \"\(alone)/\" && exec \"\(alone)/mediajob\" \"$@\""]
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let run = try fixture.run("thumbnail", [photo, "--output", fixture.folder.path("thumbs")], launcher: copy)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: this command needs \(alone)/mediajob-photo, which could not be started"), "\(run.stderr)")
        #expect(run.stderr.contains("install mediajob-photo in the same folder as mediajob"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("thumbs")))
    }
}
