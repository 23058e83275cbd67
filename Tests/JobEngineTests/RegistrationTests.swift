import EngineTestKit
import Foundation
import JobEngine
import TaskContract
import Testing

/// An embedder's own names: its identifiers, its kind's name, its workspaces, its subtitle.
@Suite struct RegistrationTests {
    let folder = TemporaryDirectory()

    func scheduler(workspacePrefix: String = "job") throws -> JobScheduler {
        try JobScheduler(store: InMemoryJobStore(), lockDirectory: folder.url.appendingPathComponent("locks"),
                         maxConcurrentJobs: 1, queuePollInterval: .milliseconds(5), workspacePrefix: workspacePrefix)
    }

    @Test func aKindRunsTheJobsItsOwnReverseDNSPatternAdmitsWhateverTheKindIsNamed() async throws {
        let scheduler = try scheduler(workspacePrefix: "myapp")
        try scheduler.register(ScriptedJob(name: "my.hash"), permitted: TaskIdentifier("com.example.myapp.hash.*"))
        let request = try TaskRequest(identifier: TaskIdentifier("com.example.myapp.hash.1"), title: "Hashing",
                                      subtitle: "starting")
        guard case .created(let handle) = try scheduler.submit(request, spec: ScriptedJob.Spec(units: 2, destination: folder.path("out.txt"))) else {
            Issue.record("expected a new job")
            return
        }
        #expect(handle.record.kind == "my.hash")
        #expect(URL(fileURLWithPath: handle.record.workspace).lastPathComponent == ".out.txt.myapp-\(handle.id.short)")
        #expect(await scheduler.run(handle) == .completed)
        #expect(try String(contentsOfFile: folder.path("out.txt"), encoding: .utf8) == ScriptedJob.expectedResult(units: 2))
    }

    @Test func aPatternThatOverlapsARegisteredOneIsRefusedNamingBoth() throws {
        let scheduler = try scheduler()
        try scheduler.register(ScriptedJob(name: "all"), permitted: TaskIdentifier("com.example.*"))
        #expect(throws: SchedulerError.overlappingPermission(try TaskIdentifier("com.example.hash.*"),
                                                            registered: try TaskIdentifier("com.example.*"), kind: "all")) {
            try scheduler.register(ScriptedJob(name: "hash"), permitted: TaskIdentifier("com.example.hash.*"))
        }
        try scheduler.register(ScriptedJob(name: "other"), permitted: TaskIdentifier("org.example.hash.*"))
    }

    @Test(arguments: ["", "my app", "a/b", ".."])
    func aWorkspacePrefixThatCannotNameAFolderIsRefused(prefix: String) {
        #expect(throws: SchedulerError.invalidWorkspacePrefix(prefix)) { try scheduler(workspacePrefix: prefix) }
    }

    @Test func settingsOfAnotherTypeAreRejectedSayingWhichTypeTheKindTakes() throws {
        let scheduler = try scheduler()
        try scheduler.register(ScriptedJob(), permitted: TaskIdentifier("com.example.scripted.*"))
        let request = try TaskRequest(identifier: TaskIdentifier("com.example.scripted.*").unique(), title: "x", subtitle: "y")
        let error = try #require(throws: SchedulerError.self) { try scheduler.submit(request, spec: ["units": 2]) }
        guard case .rejected(_, .wrongSettingsType(kind: "scripted", let expected, let given)) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(expected.hasSuffix("Spec") && given.contains("Dictionary"))
        #expect(error.message.contains("take settings of type"))
    }

    @Test(arguments: [false, true])
    func theSubtitleShowsCommittedCountsOnlyWhenTheKindAsks(asks: Bool) async throws {
        let scheduler = try scheduler()
        try scheduler.register(ScriptedJob(showsCountsInSubtitle: asks), permitted: TaskIdentifier("com.example.scripted.*"))
        let request = try TaskRequest(identifier: TaskIdentifier("com.example.scripted.*").unique(), title: "Scripted",
                                      subtitle: "hashing files")
        guard case .created(let handle) = try scheduler.submit(request, spec: ScriptedJob.Spec(units: 3, destination: folder.path("out.txt"))) else {
            Issue.record("expected a new job")
            return
        }
        #expect(await scheduler.run(handle) == .completed)
        #expect(handle.task.subtitle == (asks ? "render 3/3" : "hashing files"))
    }
}
