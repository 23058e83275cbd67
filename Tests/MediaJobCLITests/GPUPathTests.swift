import EngineTestKit
import Foundation
import Glibc
import MediaTestKit
import Testing

/// The GPU path end to end on this machine's Vulkan devices (software ones allowed with
/// MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1: lavapipe in CI, a GPU first where the machine has one), and
/// resource probing when there is no loader, no driver, or only a software device.
@Suite struct GPUPathTests {
    static let software = ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"]
    /// Only lavapipe offered to the Vulkan loader, whatever GPUs the machine has, and software
    /// devices not allowed: a machine whose only device is a software one.
    static let softwareOnly: [String: String] = {
        let folder = "/usr/share/vulkan/icd.d"
        let lavapipe = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .first { $0.hasPrefix("lvp_icd") }.map { "\(folder)/\($0)" } ?? "\(folder)/lvp_icd (not installed: run Scripts/setup)"
        return ["VK_DRIVER_FILES": lavapipe, "VK_ICD_FILENAMES": lavapipe, "MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "0"]
    }()
    static let noDriver = ["VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json",
                           "MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"]
    static let noLoader = ["MEDIAJOB_VULKAN_LOADER": "/nonexistent/libvulkan.so.1", "MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"]

    /// Two photos and a short clip with audio, each with edits the GPU renders.
    static func project(in fixture: CLIFixture) throws -> String {
        let project = fixture.folder.url.appendingPathComponent("gpu-project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for name in ["small-640x480.jpg", "overlay-alpha-480x480.png"] {
            try FileManager.default.copyItem(at: sampleProject.appendingPathComponent(name), to: project.appendingPathComponent(name))
        }
        try MediaFixtures.clip(project.appendingPathComponent("clip.mp4").path, size: "320x240", seconds: 3)
        try Data(#"""
            {"version": 1, "name": "GPU", "assets": [
              {"path": "small-640x480.jpg", "output": "small", "edits": {"rotate": 90, "exposure": 0.2}},
              {"path": "overlay-alpha-480x480.png", "output": "overlay", "edits": {"max_width": 300}},
              {"path": "clip.mp4", "output": "clip", "edits": {"max_height": 160, "saturation": 1.3}}],
             "export": {"package": {"format": "zip", "name": "gpu.zip"}}}
            """#.utf8).write(to: project.appendingPathComponent("project.json"))
        return project.path
    }

    /// The paths the store records for the job's chunks.
    static func executors(_ fixture: CLIFixture, _ id: String) throws -> [String] {
        try StoredJob(fixture, id: id).store.chunks(of: StoredJob(fixture, id: id).id).compactMap(\.executor)
    }

    @Test func withoutADriverAutoRendersOnTheCPUAndOnIsRefused() throws {
        for (environment, reason) in [(Self.noDriver, "no Vulkan driver"), (Self.noLoader, "no Vulkan loader")] {
            let fixture = CLIFixture()
            let project = try Self.project(in: fixture)
            let probe = try fixture.run("probe", ["--json"], environment: environment)
            #expect(probe.status == 0)
            let report = try #require(CLIProcess.object(Substring(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
            #expect(report["supported_resources"] as? [String] == ["cpu"])
            #expect(((report["vulkan"] as? [String: Any])?["reason"] as? String)?.hasPrefix(reason) == true, "\(report)")

            let refused = try fixture.run("export", [project, "--output", fixture.folder.path("on.zip"), "--gpu", "on"],
                                          environment: environment)
            #expect(refused.status == 69)
            #expect(refused.stderr.contains(reason), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("on.zip")))

            let auto = try fixture.run("export", [project, "--output", fixture.folder.path("auto.zip"), "--json"],
                                       environment: environment)
            #expect(auto.status == 0, "\(auto.stderr)")
            let id = try #require(auto.events.first?[string: "job_id"])
            #expect(try Set(Self.executors(fixture, id)) == ["cpu"])
        }
    }

    @Test func aSoftwareDeviceIsUsedOnlyWhenAllowed() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture)
        let refused = try fixture.run("export", [project, "--output", fixture.folder.path("refused.zip"), "--gpu", "on"],
                                      environment: Self.softwareOnly)
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("only software Vulkan devices"), "\(refused.stderr)")

        let gpu = try fixture.run("export", [project, "--output", fixture.folder.path("gpu.zip"), "--gpu", "on", "--json"],
                                  environment: Self.software)
        #expect(gpu.status == 0, "\(gpu.stderr)")
        let id = try #require(gpu.events.first?[string: "job_id"])
        // Photos and video segments render on the GPU; the audio chunk has nothing to render.
        let executors = try Self.executors(fixture, id).sorted()
        #expect(executors.filter { $0 == "cpu" }.count == 1 && executors.filter { $0 == "gpu" }.count == executors.count - 1)
        #expect(executors.count >= 4, "two photos, the clip's segments and its audio")
        let renderedBy = try fixture.status(id)["rendered_by"] as? [String: Int]
        #expect(renderedBy == ["cpu": 1, "gpu": executors.count - 1])
        let off = try fixture.run("export", [project, "--output", fixture.folder.path("off.zip"), "--gpu", "off", "--json"],
                                  environment: Self.software)
        let offID = try #require(off.events.first?[string: "job_id"])
        #expect(try Set(Self.executors(fixture, offID)) == ["cpu"])
    }

    @Test func stoppedOrKilledWhileRenderingOnTheGPUResumesToTheSameBytes() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture)
        let reference = fixture.folder.path("reference.zip")
        #expect(try fixture.run("export", [project, "--output", reference, "--gpu", "on"], environment: Self.software).status == 0)

        for signal in [SIGINT, SIGKILL] {
            let output = fixture.folder.path("out-\(signal).zip")
            let job = try fixture.start("export", [project, "--output", output, "--gpu", "on", "--json"], environment: Self.software)
            let started = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
            let id = try #require(started[string: "job_id"])
            job.send(signal)
            let stopped = job.finish()
            let state = try fixture.status(id)[string: "state"]
            if state != "completed" {
                #expect(state == (signal == SIGINT ? "paused" : "interrupted"), "signal \(signal)")
                #expect(signal != SIGINT || stopped.status == 75)
                #expect(!FileManager.default.fileExists(atPath: output), "nothing partial at the destination")
                let resumed = try fixture.run("resume", [id], environment: Self.software)
                #expect(resumed.status == 0, "\(resumed.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: reference)),
                    "signal \(signal): resumed = uninterrupted GPU export; differing: \(Self.differingEntries(output, reference))")
        }
    }

    /// The entries of two zip files whose CRC-32 or size differ (or that only one holds), through
    /// Python's `zipfile`: what a failed byte comparison names, so that it says which output moved.
    static func differingEntries(_ first: String, _ second: String) -> String {
        let script = """
            import sys, zipfile
            a, b = ({i.filename: (i.CRC, i.file_size) for i in zipfile.ZipFile(p).infolist()} for p in sys.argv[1:3])
            print(sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n)))
            """
        return (try? MediaFixtures.run("/usr/bin/python3", ["-c", script, first, second]).output) ?? "(unreadable)"
    }
}

extension GPUPathTests {
    @Test func renderBenchmarkReportsTheCPUAndNoGPUWithoutOne() throws {
        let fixture = CLIFixture()
        let result = try fixture.run("probe", ["--benchmark", "--json"], environment: Self.noDriver)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(CLIProcess.object(Substring(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
        let benchmark = try #require(report["render_benchmark"] as? [String: Any])
        let cpu = try #require(benchmark["cpu"] as? [String: Any])
        #expect(((cpu["photo_megapixels_per_second"] as? Double) ?? 0) > 0)
        #expect(((cpu["frames_per_second"] as? Double) ?? 0) > 0)
        #expect(benchmark["gpu"] is NSNull)
    }
}

extension GPUPathTests {
    /// Mesa's Vulkan drivers bring LLVM (about 45 MiB) and cannot be unloaded: a job on a machine
    /// whose drivers offer no usable GPU learns that from a probe in a child process and never
    /// maps them itself.
    @Test func aJobWithoutAUsableGPUNeverLoadsTheDrivers() throws {
        let fixture = CLIFixture()
        let project = try Self.project(in: fixture)
        let job = try fixture.start("export", [project, "--output", fixture.folder.path("auto.zip"), "--json", "--verbose"],
                                    environment: Self.softwareOnly)
        _ = try #require(job.waitForEvent { $0[string: "event"] == "progress" })
        let maps = (try? String(contentsOfFile: "/proc/\(job.pid)/maps", encoding: .utf8)) ?? ""
        let finished = job.finish()
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(!maps.isEmpty, "the job was still running when its mappings were read")
        #expect(!maps.contains("libvulkan_lvp"), "lavapipe is mapped in the job process")
        #expect(!maps.contains("libLLVM"), "LLVM is mapped in the job process")
        #expect(finished.stderr.contains("Rendering on the CPU: only software Vulkan devices"), "\(finished.stderr)")
    }
}
