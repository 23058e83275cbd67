import EngineTestKit
import Foundation
import Testing

/// `--gpu auto` renders photos and video each on the path the recorded benchmark found faster
/// for the selected device and driver (lavapipe allowed here, or a GPU where the machine has one),
/// says so in `probe` and `status`, and measures again when the driver is not the one recorded.
@Suite struct AutoPathTests {
    /// The selected device as `probe --json` describes it.
    static func selectedDevice(_ fixture: CLIFixture) throws -> [String: Any] {
        let probe = try fixture.run("probe", ["--json"], environment: GPUPathTests.software)
        let report = try #require(CLIProcess.object(Substring(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
        let vulkan = try #require(report["vulkan"] as? [String: Any])
        let selected = try #require(vulkan["selected"] as? Int, "no device selected: \(vulkan)")
        let devices = try #require(vulkan["devices"] as? [[String: Any]])
        return try #require(devices[selected]["info"] as? [String: Any])
    }

    /// Writes a benchmark record for `device` into `folder` (by default the fixture's state
    /// folder), with the given figures (MP/s for photos, frames/s for video) and driver version.
    static func record(_ fixture: CLIFixture, folder: String? = nil, device: [String: Any], driverVersion: String? = nil,
                       photos: (cpu: Double, gpu: Double), video: (cpu: Double, gpu: Double)) throws -> URL {
        let figures = { (photo: Double, frames: Double) -> [String: Double] in
            ["photo_megapixels_per_second": photo, "frames_per_second": frames, "frame_megapixels_per_second": frames * 2.0736]
        }
        var record: [String: Any] = [
            "device": device["name"] as Any, "vendor_id": device["vendor_id"] as Any, "device_id": device["device_id"] as Any,
            "driver_version": driverVersion ?? device["driver_version"] as Any, "measured_at": "2026-01-02T03:04:05Z",
            "cpu": figures(photos.cpu, video.cpu), "gpu": figures(photos.gpu, video.gpu),
        ]
        if let info = device["driver_info"] { record["driver_info"] = info }
        let file = URL(fileURLWithPath: folder ?? fixture.stateDir).appendingPathComponent("render-benchmark.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: record).write(to: file)
        return file
    }

    /// Each chunk's path, by what it rendered: photos, video (segments), audio (by the chunks' keys).
    static func paths(_ fixture: CLIFixture, _ id: String) throws -> [String: Set<String>] {
        let job = try StoredJob(fixture, id: id)
        var paths: [String: Set<String>] = [:]
        for chunk in try job.store.chunks(of: job.id) {
            let key = chunk.plan.key
            let kind = key.hasPrefix("segment-") ? "video" : key.hasPrefix("audio-") ? "audio" : "photos"
            paths[kind, default: []].insert(chunk.executor ?? "none")
        }
        return paths
    }

    @Test func autoRendersEachOperationOnThePathTheRecordFoundFaster() throws {
        let fixture = CLIFixture()
        let project = try GPUPathTests.project(in: fixture)
        let device = try Self.selectedDevice(fixture)
        let name = try #require(device["name"] as? String)
        let file = try Self.record(fixture, device: device, photos: (cpu: 40, gpu: 2), video: (cpu: 3, gpu: 30))
        let recorded = try Data(contentsOf: file)

        let export = try fixture.run("export", [project, "--output", fixture.folder.path("auto.zip"), "--json"],
                                     environment: GPUPathTests.software)
        #expect(export.status == 0, "\(export.stderr)")
        let id = try #require(export.events.first?[string: "job_id"])
        let paths = try Self.paths(fixture, id)
        #expect(paths["photos"] == ["cpu"], "photos measured faster on the CPU: \(paths)")
        #expect(paths["video"] == ["gpu"], "video measured faster on the GPU: \(paths)")
        #expect(try Data(contentsOf: file) == recorded, "a record of this device and driver is not measured again")

        let status = try fixture.run("status", [id])
        #expect(status.stdout.contains("photos on the CPU: 40.0 MP/s against 2.0 MP/s on \(name)"), "\(status.stdout)")
        #expect(status.stdout.contains("video on the GPU: 30.0 frames/s on \(name) against 3.0 frames/s on the CPU"),
                "\(status.stdout)")
        let probe = try fixture.run("probe", [], environment: GPUPathTests.software)
        #expect(probe.stdout.contains("--gpu auto renders photos on the CPU: 40.0 MP/s"), "\(probe.stdout)")

        // `on` still forces the GPU for photos.
        let on = try fixture.run("export", [project, "--output", fixture.folder.path("on.zip"), "--gpu", "on", "--json"],
                                 environment: GPUPathTests.software)
        let onID = try #require(on.events.first?[string: "job_id"])
        #expect(try Self.paths(fixture, onID)["photos"] == ["gpu"])
    }

    @Test func aRecordOfAnotherDriverVersionIsMeasuredAgain() throws {
        let fixture = CLIFixture()
        let project = try GPUPathTests.project(in: fixture)
        let device = try Self.selectedDevice(fixture)
        let file = try Self.record(fixture, device: device, driverVersion: "0.0.0-older",
                                   photos: (cpu: 1, gpu: 1000), video: (cpu: 1, gpu: 1000))
        let probe = try fixture.run("probe", [], environment: GPUPathTests.software)
        #expect(probe.stdout.contains("--gpu auto has no figures yet for"), "\(probe.stdout)")

        let environment = GPUPathTests.software.merging(["MEDIAJOB_BENCHMARK_ROUNDS": "1"]) { $1 }
        let export = try fixture.run("export", [project, "--output", fixture.folder.path("auto.zip"), "--json"],
                                     environment: environment)
        #expect(export.status == 0, "\(export.stderr)")
        let measured = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(measured["driver_version"] as? String == device["driver_version"] as? String, "\(measured)")
        #expect(measured["measured_at"] as? String != "2026-01-02T03:04:05Z")
        // The job followed the new figures.
        let cpu = try #require(measured["cpu"] as? [String: Double]), gpu = try #require(measured["gpu"] as? [String: Double])
        let id = try #require(export.events.first?[string: "job_id"])
        let photos = gpu["photo_megapixels_per_second"]! > cpu["photo_megapixels_per_second"]! ? "gpu" : "cpu"
        #expect(try Self.paths(fixture, id)["photos"] == [photos])
    }
}
