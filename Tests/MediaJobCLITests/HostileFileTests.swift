import Foundation
import JobEngine
@testable import MediaJobs
@testable import PhotoJobs
import Testing

/// Every hostile file of Tests/Corpus/hostile/ (and the cases made at run time) run through the
/// built `mediajob` beside good files: each bad one is refused with its name and its problem,
/// the good ones are done, and nothing partial reaches the destination.
@Suite struct HostileFileTests {
    /// Files that cannot be opened or recognised are refused when the job is submitted, all named
    /// at once, before any work; files that only decoding shows to be damaged fail the job that
    /// runs once those are left out. Between the two, every hostile file is named with its problem.
    @Test func anExportRefusesOrFailsNamingEachHostileFileAndItsProblemAndPublishesNothing() throws {
        var project = try HostileProject()
        let submitted = try project.fixture.run("export", [project.folder.path, "--output", project.destination, "--json"])
        #expect(submitted.status == 65)
        #expect(submitted.events.map { $0[string: "event"] } == ["rejected"], "refused before any work: \(submitted.stdout)")
        #expect(submitted.stderr.contains("cannot be used: "), "\(submitted.stderr)")
        #expect(submitted.stderr.contains("run the command again with --skip-bad"), "\(submitted.stderr)")
        let atSubmission = HostileCorpus.reports(in: submitted.stderr, for: project.listed, label: project.label)
        #expect(!atSubmission.isEmpty)
        try project.leaveOut(Set(atSubmission.keys))
        let result = try project.fixture.run("export", [project.folder.path, "--output", project.destination, "--json"])
        #expect(result.status == 65)
        #expect(result.events.last?[string: "outcome"] == "failed")
        let failed = project.listed.filter(\.isRefused)
        #expect(result.stderr.contains("\(Plural.of(failed.count, "item")) could not be processed"), "\(result.stderr)")
        let whileRunning = HostileCorpus.reports(in: result.stderr, for: project.listed, label: project.label)
        for item in project.cases {
            if item.isRefused {
                let report = try #require(atSubmission[item.name] ?? whileRunning[item.name], "an error names \(item.name)")
                #expect(report.contains(item.error!), "\(item.name) is refused because: \(item.error!) — got \(report)")
            } else {
                #expect(atSubmission[item.name] == nil && whileRunning[item.name] == nil, "\(item.name) is done, not refused")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: project.destination), "nothing at the destination")
        let beside = try FileManager.default.contentsOfDirectory(atPath: project.fixture.folder.url.path)
        #expect(beside.filter { !$0.hasPrefix(".") }.sorted() == ["project", "state"], "nothing partial beside it")
        let id = try #require(result.events.first?[string: "job_id"])
        #expect(try project.fixture.status(id)[string: "state"] == "failed")
        // The store holds each bad item as the failed outcome of its chunk, and `status` shows it.
        let bad = try Self.badItems(of: id, in: project.fixture)
        #expect(bad.count == failed.count, "\(bad)")
        for item in failed {
            let entry = bad[String(project.label(item).dropLast(2))]
            #expect(entry?.outcome == "failed" && entry?.reason.contains(item.error!) == true,
                    "status shows \(item.name) failed because: \(item.error!) — got \(String(describing: entry))")
        }
        let lines = try project.fixture.run("status", [id]).stdout
        #expect(failed.allSatisfy { lines.contains("failed:      \(project.label($0))") }, "\(lines)")
    }

    @Test func anExportWithSkipBadPackagesTheGoodFilesAndListsEachHostileOne() throws {
        let project = try HostileProject()
        let result = try project.fixture.run("export", [project.folder.path, "--output", project.destination, "--skip-bad"])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try PackageListing(zip: project.destination)
        let done = project.cases.filter { !$0.isRefused }.map(HostileProject.output)
        #expect(listing.files.map { String($0.path.prefix { $0 != "." }) }.sorted() == done.sorted())
        let refused = project.cases.filter(\.isRefused)
        #expect(listing.skipped.count == refused.count)
        let id = try Self.onlyJob(in: project.fixture)
        let bad = try Self.badItems(of: id, in: project.fixture)
        #expect(bad.count == refused.count, "\(bad)")
        for item in refused {
            let entry = listing.skipped.first { $0.hasPrefix(project.label(item)) }
            #expect(entry?.contains(item.error!) == true, "\(item.name) is listed as skipped because: \(item.error!)")
            let stored = bad[String(project.label(item).dropLast(2))]
            #expect(stored?.outcome == "skipped" && stored.map { "\(project.label(item))\($0.reason)" } == entry,
                    "status shows \(item.name) skipped as the package lists it — got \(String(describing: stored))")
        }
    }

    /// `mediajob thumbnail` and `compress` over the corpus folder, naming the files a folder scan
    /// leaves out (SVG, PDF, the playlist) too, with `--skip-bad`.
    @Test(arguments: ["thumbnail", "compress"])
    func aBatchOverTheCorpusDoesTheGoodFilesAndReportsEachHostileOne(command: String) throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("out")
        let unscanned = HostileCorpus.committed.filter { !InputCollector.mediaExtensions.contains(($0.name as NSString).pathExtension) }
        let inputs = [HostileCorpus.folder.path] + unscanned.map { HostileCorpus.url($0.name).path }
        let result = try fixture.run(command, inputs + ["--output", output, "--skip-bad"])
        #expect(result.status == 0, "\(result.stderr)")
        struct Report: Decodable { var skipped: [String] }
        let report = command == "thumbnail" ? "index.json" : "report.json"
        let skipped = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/\(report)"))).skipped
        let made = try FileManager.default.contentsOfDirectory(atPath: output)
        for item in HostileCorpus.committed {
            let base = (item.name as NSString).deletingPathExtension
            let entry = skipped.first { $0.hasPrefix(HostileCorpus.url(item.name).path + ": ") }
            if item.isRefused {
                #expect(entry?.contains(item.error!) == true, "\(item.name) is skipped because: \(item.error!)")
                #expect(!made.contains { $0.hasPrefix(base + ".") }, "no output for \(item.name)")
            } else {
                #expect(entry == nil, "\(item.name) is not skipped")
                #expect(made.contains { $0.hasPrefix(base + ".") }, "\(item.name) is done")
            }
        }
        #expect(skipped.count == HostileCorpus.committed.filter(\.isRefused).count)
        let bad = try Self.badItems(of: try Self.onlyJob(in: fixture), in: fixture)
        #expect(bad.values.map(\.outcome) == Array(repeating: "skipped", count: skipped.count))
        #expect(Set(bad.map { "\($0.key): \($0.value.reason)" }) == Set(skipped), "status shows what the report lists")
    }

    /// The `job_id` of the one job in the fixture's store.
    private static func onlyJob(in fixture: CLIFixture) throws -> String {
        let jobs = try JSONSerialization.jsonObject(with: Data(fixture.run("jobs", ["--json"]).stdout.utf8)) as? [[String: Any]]
        return try #require(jobs?.count == 1 ? jobs?[0][string: "job_id"] : nil, "one job in the store")
    }

    /// `status JOB --json`'s `bad_items`, by item.
    private static func badItems(of job: String, in fixture: CLIFixture) throws -> [String: (outcome: String, reason: String)] {
        let list = try #require(try fixture.status(job)["bad_items"] as? [[String: Any]], "status --json lists bad_items")
        return Dictionary(list.map { ($0[string: "item"] ?? "", ($0[string: "outcome"] ?? "", $0[string: "reason"] ?? "")) }) { a, _ in a }
    }

    @Test func aFileMediajobMayNotReadIsRefusedAsPermissionDenied() throws {
        let item = HostileCorpus.named("locked.jpg")
        let fixture = CLIFixture()
        // Root reads any file whatever its mode: as root, mediajob runs as nobody (setpriv), with a
        // folder nobody may write for its state and output.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let work = fixture.folder.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let locked = work.appendingPathComponent(item.name), good = work.appendingPathComponent("good-photo.jpg")
        try FileManager.default.copyItem(at: HostileCorpus.url("good-photo.jpg"), to: locked)
        try FileManager.default.copyItem(at: HostileCorpus.url("good-photo.jpg"), to: good)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        let output = work.appendingPathComponent("out").path
        let result = try CLIProcess.run(["thumbnail", locked.path, good.path, "--output", output,
                                         "--state-dir", work.appendingPathComponent("state").path], launcher: launcher)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(locked.path): "), "the error names the file: \(result.stderr)")
        #expect(result.stderr.contains(item.error!), "\(result.stderr)")
        #expect(!result.stderr.contains(good.path + ":"), "the readable photo is not refused")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing at the destination")
    }

    /// A symbolic link is refused when the project is loaded: the whole export is, before any job.
    @Test(arguments: ["escape.jpg", "elsewhere/photo.jpg"])
    func aSymbolicLinkLeadingOutOfTheProjectRefusesTheExport(path: String) throws {
        let fixture = CLIFixture()
        let outside = fixture.folder.url.appendingPathComponent("outside")
        let project = fixture.folder.url.appendingPathComponent("project")
        for folder in [outside, project] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: HostileCorpus.url("good-photo.jpg"), to: outside.appendingPathComponent("photo.jpg"))
        try FileManager.default.copyItem(at: HostileCorpus.url("good-photo.jpg"), to: project.appendingPathComponent("good-photo.jpg"))
        try FileManager.default.createSymbolicLink(at: project.appendingPathComponent("escape.jpg"),
                                                   withDestinationURL: outside.appendingPathComponent("photo.jpg"))
        try FileManager.default.createSymbolicLink(at: project.appendingPathComponent("elsewhere"), withDestinationURL: outside)
        let manifest = #"{"version": 1, "name": "p", "assets": [{"path": "good-photo.jpg"}, {"path": "\#(path)"}]}"#
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        let output = fixture.folder.path("p.zip")
        let result = try fixture.run("export", [project.path, "--output", output])
        #expect(result.status == 65)
        #expect(result.stderr.contains("assets[1].path"), "\(result.stderr)")
        #expect(result.stderr.contains(HostileCorpus.named("escape.jpg").error!), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try fixture.run("jobs", ["--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]",
                "no job was submitted")
    }
}
