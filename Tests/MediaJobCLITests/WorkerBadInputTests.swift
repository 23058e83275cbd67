import Foundation
import Glibc
import JobEngine
import MediaTestKit
import PostgresJobStore
import PostgresTestKit
import Testing

/// Inputs that fail under workers: a bad item is recorded and the rest of the job runs, ending as
/// one process's run ends; an input one worker cannot see (its mount lacks it) is left to a worker
/// that can, and becomes a bad item only after three workers' attempts failed.
@Suite struct WorkerBadInputTests {
    /// A project of a good photo and one under `shared/` (a folder a blind worker's mount hides),
    /// exported into a folder; `damaged` makes the second a JPEG cut short (its header reads, its
    /// data does not).
    private struct Project {
        let fixture = CLIFixture()
        var folder: URL { fixture.folder.url.appendingPathComponent("p") }
        var hidden: String { folder.appendingPathComponent("shared").path }

        init(damaged: Bool) throws {
            let fm = FileManager.default
            try fm.createDirectory(at: folder.appendingPathComponent("shared"), withIntermediateDirectories: true)
            try fm.copyItem(at: sampleProject.appendingPathComponent("small-640x480.jpg"), to: folder.appendingPathComponent("good.jpg"))
            try fm.copyItem(at: damaged ? HostileCorpus.url("truncated.jpg") : sampleProject.appendingPathComponent("overlay-alpha-480x480.png"),
                            to: folder.appendingPathComponent("shared/second.jpg"))
            let manifest = #"{"version": 1, "name": "p", "assets": [{"path": "good.jpg"}, {"path": "shared/second.jpg"}], "#
                + #""export": {"package": {"format": "folder"}}}"#
            try Data(manifest.utf8).write(to: folder.appendingPathComponent("project.json"))
        }

        /// Submits the export to `store` with `--detach` (and `options`) and returns the job's id.
        func submit(to store: String, output: String, options: [String] = []) throws -> JobID {
            let submitted = try fixture.run("export", [folder.path, "--output", output, "--store", store, "--detach", "--json"] + options)
            #expect(submitted.status == 0, "\(submitted.stderr)")
            return JobID(rawValue: try #require(submitted.events.first?[string: "job_id"]))
        }

        /// A worker whose mount namespace hides `shared/` under an empty file system, as a machine
        /// whose shared mount lacks that folder; `lease` seconds.
        func blindWorker(_ name: String, store: String, lease: String) throws -> CLIProcess {
            try fixture.startWorker(name, store: store, lease: lease, launcher: [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                #"mount -t tmpfs tmpfs "$0" && exec "$@""#, hidden,
            ])
        }
    }

    /// A damaged photo in a job run by a worker: the other photo is committed, the damaged one is
    /// recorded as a bad item naming the worker's host, and the job ends failed (invalid input)
    /// listing the same item as the same export run in one process does.
    @Test func aBadItemUnderAWorkerEndsTheJobAsOneProcessDoes() async throws {
        let project = try Project(damaged: true)
        let fixture = project.fixture
        let alone = try fixture.run("export", [project.folder.path, "--output", fixture.folder.path("alone")])
        #expect(alone.status == 65, "\(alone.stderr)")
        let aloneID = try #require(try fixture.store().jobs().first?.id)
        let aloneStatus = try fixture.status(aloneID.rawValue)

        try await PostgresTestSchema.with { schema in
            let store = schema.storeURL
            let id = try project.submit(to: store, output: fixture.folder.path("out"))
            let worker = try fixture.startWorker("worker", store: store, lease: "5")
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) ends", limit: .seconds(120)) { try reader.job(id)?.state.isLive == false }
            stopWorkers([worker])

            let job = try #require(try reader.job(id))
            #expect(job.state == .failed)
            #expect(job.failure == .invalidInput)
            #expect(job.message?.hasPrefix("1 item could not be processed: assets[1] (shared/second.jpg): ") == true,
                    "\(job.message ?? "")")
            #expect(try reader.chunks(of: id).map(\.isDone) == [true, false], "the good photo was committed")
            let status = try fixture.run("status", [id.rawValue, "--store", store, "--json"])
            let object = try #require(CLIProcess.object(Substring(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
            #expect(object[string: "state"] == aloneStatus[string: "state"])
            let bad = try #require(object["bad_items"] as? [[String: Any]])
            let aloneBad = try #require(aloneStatus["bad_items"] as? [[String: Any]])
            #expect(bad.map { $0[string: "item"] } == aloneBad.map { $0[string: "item"] })
            #expect(bad.map { $0[string: "outcome"] } == ["failed"])
            #expect(bad.first?[string: "reason"]?.hasSuffix("(on host \(ProcessInfo.processInfo.hostName))") == true,
                    "\(bad)")
            #expect(try reader.journal(of: id).filter { $0.event == .claimed }.count == 3, "two chunks and the package, once each")
            #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("out")), "nothing partial at the destination")
        }
    }

    /// With `--skip-bad`, a damaged photo in a job run by a worker is left out and listed in the
    /// package's manifest in the same words as the same export run in one process lists it, from
    /// the bad items the worker read once as it claimed the package stage; the other photo's file
    /// is the one process's, byte for byte (by the manifest's sizes and SHA-256).
    @Test func aSkippedBadItemUnderAWorkerIsListedAsOneProcessListsIt() async throws {
        let project = try Project(damaged: true)
        let fixture = project.fixture
        let alone = try fixture.run("export", [project.folder.path, "--output", fixture.folder.path("alone"), "--skip-bad"])
        #expect(alone.status == 0, "\(alone.stderr)")
        let aloneManifest = try Self.manifest(in: fixture.folder.path("alone"))

        try await PostgresTestSchema.with { schema in
            let store = schema.storeURL
            let id = try project.submit(to: store, output: fixture.folder.path("out"), options: ["--skip-bad"])
            let worker = try fixture.startWorker("worker", store: store, lease: "5")
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) ends", limit: .seconds(120)) { try reader.job(id)?.state.isLive == false }
            stopWorkers([worker])

            #expect(try reader.job(id)?.state == .completed)
            let manifest = try Self.manifest(in: fixture.folder.path("out"))
            let aloneSkipped = try #require(aloneManifest["skipped"] as? [String])
            let skipped = try #require(manifest["skipped"] as? [String])
            #expect(aloneSkipped.count == 1 && aloneSkipped.first?.hasPrefix("assets[1] (shared/second.jpg): ") == true,
                    "\(aloneSkipped)")
            #expect(skipped == aloneSkipped)
            #expect(manifest["files"] as? [[String: AnyHashable]] == aloneManifest["files"] as? [[String: AnyHashable]])
        }
    }

    /// The `manifest.json` of the export package (a folder) at `path`.
    private static func manifest(in path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path).appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A worker that cannot see `shared/second.jpg` commits the other photo and fails the second's
    /// chunk with a message naming the path and its host, and does not take it again; a worker that
    /// sees it, started afterwards, completes the job, with the same files as one process exports.
    /// With `--skip-bad` too: an input one machine cannot see is not a bad item to skip while
    /// another may see it.
    @Test(.enabled(if: getuid() == 0, "hiding a folder in a mount namespace takes root"),
          arguments: [[], ["--skip-bad"]])
    func aChunkAWorkerCannotSeeIsDoneByOneThatCan(options: [String]) async throws {
        let project = try Project(damaged: false)
        let fixture = project.fixture
        let reference = fixture.folder.path("alone")
        let alone = try fixture.run("export", [project.folder.path, "--output", reference] + options)
        #expect(alone.status == 0, "\(alone.stderr)")

        try await PostgresTestSchema.with { schema in
            let store = schema.storeURL
            let output = fixture.folder.path("out")
            let id = try project.submit(to: store, output: output, options: options)
            // A long lease: the blind worker may not take its failed chunk back for ten minutes.
            let blind = try project.blindWorker("blind", store: store, lease: "600")
            let reader = try PostgresJobStore(store)
            try await waitUntil("the blind worker failed chunk 1 of job \(id.short)", limit: .seconds(120)) {
                try reader.journal(of: id).contains { $0.event == .chunkFailed }
            }
            stopWorkers([blind])
            #expect(try reader.chunks(of: id).map(\.isDone) == [true, false], "the blind worker did the photo it sees")
            let failed = try reader.journal(of: id).filter { $0.event == .chunkFailed }
            #expect(failed.count == 1)
            #expect(failed.first?.detail["chunk"] == "1")
            #expect(failed.first?.detail["retry"] == "true")
            let message = failed.first?.detail["message"] ?? ""
            #expect(message.contains("on host \(ProcessInfo.processInfo.hostName)"), "\(message)")
            #expect(message.contains(project.folder.appendingPathComponent("shared/second.jpg").path), "\(message)")
            #expect(try reader.badItems(of: id).isEmpty, "the item is not bad: another machine may see it")

            let sighted = try fixture.startWorker("sighted", store: store, lease: "5")
            try await waitUntil("job \(id.short) is completed by the worker that sees every input", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            stopWorkers([sighted])
            let files = try FileManager.default.contentsOfDirectory(atPath: reference).sorted()
            #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == files)
            for name in files where name != "manifest.json" {
                #expect(FileManager.default.contentsEqual(atPath: "\(output)/\(name)", andPath: "\(reference)/\(name)"), "\(name)")
            }
            let claims = try reader.journal(of: id).filter { $0.event == .claimed && $0.detail["chunk"] == "1" }
            #expect(claims.map { $0.detail["worker"]?.hasSuffix(":\(blind.pid)") } == [true, false])
        }
    }

    /// A lone worker that cannot see an input tries its chunk three times, a lease apart (for
    /// another worker to take it meanwhile), then records the item as bad, naming the path and its
    /// host, and the job ends failed.
    @Test(.enabled(if: getuid() == 0, "hiding a folder in a mount namespace takes root"))
    func anInputNoWorkerSeesBecomesABadItemAfterThreeAttempts() async throws {
        let project = try Project(damaged: false)
        let fixture = project.fixture
        try await PostgresTestSchema.with { schema in
            let store = schema.storeURL
            let id = try project.submit(to: store, output: fixture.folder.path("out"))
            let blind = try project.blindWorker("blind", store: store, lease: "1")
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) ends", limit: .seconds(120)) { try reader.job(id)?.state.isLive == false }
            stopWorkers([blind])
            #expect(try reader.job(id)?.state == .failed)
            let failed = try reader.journal(of: id).filter { $0.event == .chunkFailed }
            #expect(failed.map { $0.detail["retry"] } == ["true", "true", nil])
            let bad = try reader.badItems(of: id)
            #expect(bad.map(\.item) == ["assets[1] (shared/second.jpg)"])
            #expect(bad.first?.reason.contains(project.folder.appendingPathComponent("shared/second.jpg").path) == true)
            #expect(bad.first?.reason.hasSuffix("(on host \(ProcessInfo.processInfo.hostName))") == true, "\(bad)")
        }
    }
}
