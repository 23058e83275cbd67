import EngineTestKit
import Foundation
import JobEngine
import TaskContract

/// A scheduler over an in-memory store and a temporary folder, with one scripted job kind.
struct EngineFixture {
    let folder = TemporaryDirectory()
    let store = InMemoryJobStore()
    let job: ScriptedJob
    let scheduler: JobScheduler

    init(maxJobs: Int = 1, chunksAtOnce: Int = 1, probe: any ResourceProbe = FixedResourceProbe(), hostCondition: (any HostCondition)? = nil,
         hook: @escaping ScriptedJob.Hook = { _, _ in }) throws {
        job = ScriptedJob(hook: hook)
        scheduler = try JobScheduler(store: store, lockDirectory: folder.url.appendingPathComponent("locks"), probe: probe,
                                     maxConcurrentJobs: maxJobs, chunksAtOnce: chunksAtOnce, queuePollInterval: .milliseconds(5),
                                     cancelPollInterval: .milliseconds(5), hostCondition: hostCondition)
        try scheduler.register(job, permitted: try Self.permitted())
    }

    /// Settings for `units` chunks publishing to `name` in the folder.
    func spec(units: Int = 4, name: String = "out.txt", overwrite: Bool = false) -> ScriptedJob.Spec {
        ScriptedJob.Spec(units: units, destination: folder.path(name), overwrite: overwrite)
    }

    func request(_ strategy: SubmissionStrategy = .queue, resources: TaskResources = []) throws -> TaskRequest {
        try TaskRequest(identifier: Self.permitted().unique(), title: "Scripted", subtitle: "starting",
                        strategy: strategy, requiredResources: resources)
    }

    /// Submits and expects a new job.
    func submit(_ spec: ScriptedJob.Spec, _ strategy: SubmissionStrategy = .queue) throws -> JobHandle {
        guard case .created(let handle) = try scheduler.submit(try request(strategy), spec: spec) else {
            throw FixtureError.notCreated
        }
        return handle
    }

    /// The published result, if any.
    func result(_ name: String = "out.txt") -> String? {
        try? String(contentsOfFile: folder.path(name), encoding: .utf8)
    }

    func state(_ id: JobID) throws -> JobState? {
        try scheduler.jobs().first { $0.id == id }?.state
    }

    /// The identifiers of the scripted kind's jobs.
    static func permitted() throws -> TaskIdentifier { try TaskIdentifier("com.example.enginetests.scripted.*") }

    enum FixtureError: Error { case notCreated }
}
