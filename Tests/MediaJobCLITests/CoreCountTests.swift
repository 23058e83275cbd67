import EngineTestKit
import FFmpeg
import Foundation
import JobEngine
import MediaTestKit
import Testing
import Vips

/// Encoded bytes depend on inputs and settings only, never on how many CPUs the machine has
/// (DESIGN.md §10: the segments of one job may be encoded on a 2-core laptop and a 64-core farm
/// node and joined). Each export, compression and thumbnail run goes twice, once as on one CPU
/// (``OneCPU``) and once on every CPU of this one, and the outputs must be byte-identical: H.264,
/// HEVC and AV1 video in several segments, AAC audio, JPEG, WebP and AVIF photos, and thumbnails.
///
/// Needs more than one CPU to compare with one, and root (as CI has) for the mount namespace.
@Suite(.enabled(if: HostProbe().cpu().usable > 1, "needs more than one CPU to compare with one"))
struct CoreCountTests {
    /// A program run as on a machine with one CPU, whichever way a library counts them: pinned to
    /// CPU 0 (`sched_getaffinity`: x264, glib and so libvips, the job engine's own probe) and, in a
    /// mount namespace of its own, with `/sys/devices/system/cpu/online` and `possible` reading
    /// `0` (`sysconf(_SC_NPROCESSORS_ONLN)` and `_CONF`: SVT-AV1, x265 without libnuma).
    struct OneCPU {
        /// The command prefix; the program is exec'd, keeping its pid.
        let launcher: [String]

        init(in folder: TemporaryDirectory) throws {
            let list = folder.path("cpu-list")
            try Data("0\n".utf8).write(to: URL(fileURLWithPath: list))
            launcher = [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "/usr/bin/taskset", "--cpu-list", "0",
                "/bin/sh", "-c",
                #"for name in online possible; do mount --bind "$0" /sys/devices/system/cpu/$name || exit 70; done; exec "$@""#,
                list,
            ]
        }
    }

    /// `command arguments…` under `launcher`, its standard output; throws naming the command
    /// when it fails.
    private static func output(of command: [String], launcher: [String] = []) throws -> String {
        let process = Process()
        let line = launcher + command
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MediaFixtures.FixtureError(message: "\(line.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file under `folder` by its path there, with its bytes.
    private static func files(under folder: String) throws -> [String: Data] {
        let root = URL(fileURLWithPath: folder)
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init() {
            guard !url.hasDirectoryPath else { continue }
            files[String(url.path.dropFirst(root.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    /// Runs `command arguments… --output <name>` once as on one CPU and once on every CPU, each
    /// with a state folder of its own, the second with as many libvips threads as CPUs (libvips'
    /// own count, which `VIPS_CONCURRENCY` in the environment overrides, as it does the program's
    /// one thread per chunk). Checks that the first ran one chunk at a time and the
    /// second more, each in at least two chunks and `segments` video segments, and expects the same
    /// files (among them files named `names`) with the same bytes.
    /// - Returns: what the run on every CPU wrote to standard error.
    @discardableResult
    private static func expectSameOutputs(_ command: String, _ arguments: [String], in folder: TemporaryDirectory,
                                          names: [String], segments: Int = 2,
                                          environment: [String: String] = [:]) throws -> String {
        let oneCPU = try OneCPU(in: folder)
        var outputs: [[String: Data]] = []
        var stderr = ""
        let allCPUs = HostProbe().cpu().usable
        for (name, launcher, vipsThreads) in [("one-cpu", oneCPU.launcher, 1), ("all-cpus", [], allCPUs)] {
            let fixture = CLIFixture()
            let output = folder.path(name)
            let result = try fixture.run(command, arguments + ["--output", output, "--json"],
                                         environment: environment.merging(["VIPS_CONCURRENCY": String(vipsThreads)]) { $1 },
                                         launcher: launcher)
            stderr = result.stderr
            try #require(result.status == 0, "\(name): \(result.stderr)")
            let id = try #require(result.events.last?[string: "job_id"], "\(name): \(result.stdout)")
            let job = try StoredJob(fixture, id: id)
            let started = try #require(try job.store.journal(of: job.id).first { $0.event == .started })
            let chunksAtOnce = try #require(started.detail["chunks_at_once"].flatMap(Int.init))
            #expect(name == "one-cpu" ? chunksAtOnce == 1 : chunksAtOnce > 1, "\(name): \(chunksAtOnce) chunks at once")
            let chunks = try job.store.chunks(of: job.id)
            let encoded = chunks.filter { $0.plan.stage == .encode }.count
            #expect(chunks.count >= 2 && encoded >= segments, "\(name): \(chunks.count) chunks, \(encoded) video segments")
            outputs.append(try files(under: output))
        }
        for name in names {
            #expect(outputs[0].keys.contains { $0.hasSuffix("/" + name) || $0 == name }, "\(name) among \(outputs[0].keys.sorted())")
        }
        #expect(outputs[0].keys.sorted() == outputs[1].keys.sorted())
        for (path, bytes) in outputs[0].sorted(by: { $0.key < $1.key }) {
            #expect(bytes == outputs[1][path], "\(path) differs between one CPU and \(allCPUs)")
        }
        return stderr
    }

    /// A 3 s 720p clip with sound (AAC) and a keyframe a second, so that it cuts into segments.
    private static func clip(in folder: URL) throws {
        try MediaFixtures.clip(folder.appendingPathComponent("clip.mp4").path, size: "1280x720", seconds: 3)
    }

    /// The one-CPU launcher reaches both ways of counting CPUs, and an encoder left to size its
    /// own threads then gives other bytes: the `ffmpeg` tool's libx264 with `-threads 0` (one
    /// thread on one CPU, 1.5 per CPU otherwise), the same with `-threads 1`.
    @Test func theOneCPULauncherIsWhatEncodersCountingCPUsSee() throws {
        let folder = TemporaryDirectory()
        let oneCPU = try OneCPU(in: folder)
        #expect(try Self.output(of: ["/usr/bin/nproc"], launcher: oneCPU.launcher) == "1")
        #expect(try Self.output(of: ["/usr/bin/getconf", "_NPROCESSORS_ONLN"], launcher: oneCPU.launcher) == "1")
        #expect(try Self.output(of: ["/usr/bin/getconf", "_NPROCESSORS_CONF"], launcher: oneCPU.launcher) == "1")

        let source = folder.path("source.mp4")
        try MediaFixtures.clip(source, size: "640x360", seconds: 2, audio: false)
        func x264(threads: String, launcher: [String]) throws -> Data {
            let output = folder.path("x264-\(threads)-\(launcher.isEmpty ? "all" : "one").h264")
            _ = try Self.output(of: ["/usr/bin/ffmpeg", "-v", "error", "-i", source, "-c:v", "libx264", "-preset", "veryfast",
                                     "-threads", threads, "-flags", "+bitexact", "-f", "h264", "-y", output], launcher: launcher)
            return try Data(contentsOf: URL(fileURLWithPath: output))
        }
        #expect(try x264(threads: "0", launcher: oneCPU.launcher) != (try x264(threads: "0", launcher: [])),
                "libx264 left to count CPUs encodes otherwise on one")
        #expect(try x264(threads: "1", launcher: oneCPU.launcher) == (try x264(threads: "1", launcher: [])))
    }

    /// `export` of a project with two photos (one with alpha) and a clip with sound re-encoded to
    /// AAC, in segments of at most half a second of work. SVT-AV1's bytes did not change with its
    /// thread count here (1 or 2), so for it the test also reads its log (`SVT_LOG=4`): each
    /// segment's encoder is told one thread on every CPU too, as a machine with more cores needs.
    @Test(arguments: [("h264", "jpeg"), ("hevc", "webp"), ("av1", "avif")].filter { codec, format in
        (codec != "hevc" || FFmpeg.hasEncoder("libx265")) && (codec != "av1" || FFmpeg.hasEncoder("libsvtav1")
            || FFmpeg.hasEncoder("libaom-av1"))
    })
    func anExportIsTheSameOnOneCPUAsOnAll(codec: String, format: String) throws {
        let folder = TemporaryDirectory()
        let project = folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for name in ["small-640x480.jpg", "overlay-alpha-480x480.png"] {
            try FileManager.default.copyItem(at: sampleProject.appendingPathComponent(name), to: project.appendingPathComponent(name))
        }
        try Self.clip(in: project)
        let manifest = """
            {"version": 1, "name": "Cores", "assets": [
              {"path": "small-640x480.jpg", "output": "small", "edits": {"max_width": 400, "saturation": 1.2}},
              {"path": "overlay-alpha-480x480.png", "output": "overlay", "edits": {"rotate": 90}},
              {"path": "clip.mp4", "output": "clip"}],
             "export": {"image": {"format": "\(format)", "quality": 70},
                        "video": {"codec": "\(codec)", "crf": 35, "preset": "veryfast", "chunk_seconds": 0.5},
                        "audio": {"codec": "aac", "bitrate": 96000}, "package": {"format": "folder"}}}
            """
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        let photos = ["small", "overlay"].map { "\($0).\(ImageFormat(rawValue: format)?.fileExtension ?? format)" }
        let stderr = try Self.expectSameOutputs("export", [project.path, "--gpu", "off"], in: folder,
                                                names: photos + ["clip.mp4"], environment: ["SVT_LOG": "4"])
        if codec == "av1" && FFmpeg.hasEncoder("libsvtav1") {
            let counts = stderr.split(separator: "\n").filter { $0.contains("Number of logical cores available:") }
            #expect(!counts.isEmpty && counts.allSatisfy { $0.hasSuffix(": 1") }, "\(counts)")
        }
    }

    /// `compress` of a folder with a photo and a clip (H.264, sound copied), in segments of at most
    /// half a second of work, photos to WebP.
    @Test func aCompressionIsTheSameOnOneCPUAsOnAll() throws {
        let folder = TemporaryDirectory()
        let inputs = folder.url.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"),
                                         to: inputs.appendingPathComponent("small.jpg"))
        try Self.clip(in: inputs)
        try Self.expectSameOutputs("compress", [inputs.path, "--format", "webp", "--quality", "60", "--video-crf", "35",
                                                "--chunk-seconds", "0.5", "--gpu", "off"],
                                   in: folder, names: ["small.webp", "clip.mp4"])
    }

    /// `thumbnail` of eleven photos (nine of them copies in other folders: more than one chunk of
    /// eight) and a clip, to AVIF, with contact sheets of four cells.
    @Test func thumbnailsAreTheSameOnOneCPUAsOnAll() throws {
        let folder = TemporaryDirectory()
        let inputs = folder.url.appendingPathComponent("inputs")
        let photos = ["landscape-3000x2000.jpg", "portrait-1200x1800.jpg", "small-640x480.jpg", "rotated-exif6-1600x1200.jpg",
                      "overlay-alpha-480x480.png"]
        for copy in ["a", "b", "c"] {
            let subfolder = inputs.appendingPathComponent(copy)
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
            for name in copy == "c" ? Array(photos.prefix(1)) : photos {
                try FileManager.default.copyItem(at: sampleProject.appendingPathComponent(name), to: subfolder.appendingPathComponent(name))
            }
        }
        try Self.clip(in: inputs)
        try Self.expectSameOutputs("thumbnail", [inputs.path, "--format", "avif", "--sheet-cells", "4", "--gpu", "off"],
                                   in: folder, names: ["a_small-640x480.avif", "clip.avif", "index.json", "contact-sheet-1.jpg"],
                                   segments: 0)
    }
}
