import Foundation
import Glibc
import JobEngine
import MediaTestKit
import PostgresJobStore
import PostgresTestKit
import Testing

/// Workers are listed in the store while they live; a `.fail` submission left to them is refused
/// (69) when no live worker can run it, and a `.queue` one waits.
@Suite struct WorkerLivenessTests {
    @Test func aFailSubmissionLeftToWorkersIsRefusedUnlessALiveWorkerCanRunIt() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let reader = try PostgresJobStore(store)
            func selftest(_ name: String, _ options: [String]) throws -> CLIProcess.Result {
                try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 10, output: name) + ["--store", store] + options)
            }

            let refused = try selftest("refused.json", ["--detach", "--strategy", "fail"])
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stderr.contains("no live worker is taking chunks"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--strategy queue"), "\(refused.stderr)")
            let waiting = try selftest("waiting.json", ["--detach"])
            #expect(waiting.status == 0, "a .queue submission waits for a worker: \(waiting.stderr)")
            let worked = try selftest("worked.json", ["--strategy", "fail"])
            #expect(worked.status == 0, "a submitter that works on its job counts as a live worker: \(worked.stderr)")

            let worker = try fixture.startWorker("worker", store: store, lease: "5", arguments: ["--gpu", "off"])
            #expect(worker.waitForStderr(containing: "is taking chunks"))
            let live = try reader.liveWorkers()
            #expect(live.map(\.pid) == [worker.pid])
            #expect(live.first?.host == ProcessInfo.processInfo.hostName)
            #expect(live.first?.hasGPU == false)
            #expect(live.first?.slots == 1)
            let accepted = try selftest("accepted.json", ["--detach", "--strategy", "fail"])
            #expect(accepted.status == 0, "\(accepted.stderr)")

            let project = try Self.onePhotoProject(in: fixture)
            let gpuJob = try fixture.run("export", [project, "--output", fixture.folder.path("gpu"), "--gpu", "on", "--store", store,
                                                    "--detach", "--strategy", "fail"], environment: GPUPathTests.software)
            #expect(gpuJob.status == 69, "\(gpuJob.stderr)")
            #expect(gpuJob.stderr.contains("no live worker selected a GPU, and the job requires one"), "\(gpuJob.stderr)")
            #expect(gpuJob.stderr.contains("mediajob worker --gpu on"), "\(gpuJob.stderr)")

            try await waitUntil("the worker ran both detached self-tests", limit: .seconds(120)) {
                try FileManager.default.fileExists(atPath: fixture.folder.path("waiting.json"))
                    && FileManager.default.fileExists(atPath: fixture.folder.path("accepted.json"))
            }
            stopWorkers([worker])
            #expect(try reader.liveWorkers() == [], "a worker that ended cleanly is no longer listed")
        }
    }

    /// A project of one photo, exported into a folder.
    private static func onePhotoProject(in fixture: CLIFixture) throws -> String {
        let project = fixture.folder.url.appendingPathComponent("one-photo")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"),
                                         to: project.appendingPathComponent("small.jpg"))
        try Data(#"{"version": 1, "name": "p", "assets": [{"path": "small.jpg"}], "export": {"package": {"format": "folder"}}}"#.utf8)
            .write(to: project.appendingPathComponent("project.json"))
        return project.path
    }
}
