import EngineTestKit
import Foundation
@testable import MediaJobs
import SQLiteJobStore

/// A state folder for one end-to-end test, and the commands that use it.
struct CLIFixture {
    let folder = TemporaryDirectory()

    var stateDir: String { folder.path("state") }

    /// `mediajob <command> <arguments…> --state-dir <folder>`, run to the end.
    func run(_ command: String, _ arguments: [String] = [], environment: [String: String] = [:],
             launcher: [String] = []) throws -> CLIProcess.Result {
        try CLIProcess.run([command] + arguments + ["--state-dir", stateDir], environment: environment, launcher: launcher)
    }

    /// The same, started in the background.
    func start(_ command: String, _ arguments: [String] = [], environment: [String: String] = [:],
               launcher: [String] = []) throws -> CLIProcess {
        try CLIProcess([command] + arguments + ["--state-dir", stateDir], environment: environment, launcher: launcher)
    }

    /// A self-test's arguments, publishing to `name` in the folder.
    func selftest(units: Int = 12, unitMilliseconds: Int = 30, output name: String = "result.json") -> [String] {
        ["--units", String(units), "--unit-ms", String(unitMilliseconds), "--output", folder.path(name), "--json"]
    }

    /// `status JOB --json`, parsed.
    func status(_ job: String) throws -> [String: Any] {
        let result = try run("status", [job, "--json"])
        return CLIProcess.object(Substring(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))) ?? [:]
    }

    /// The self-test's result file, parsed.
    func result(_ name: String = "result.json") throws -> SelfTestJob.Result {
        try JSONDecoder().decode(SelfTestJob.Result.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
    }

    /// The job store in the state folder, opened as another process would.
    func store() throws -> SQLiteJobStore {
        try SQLiteJobStore(path: folder.path("state/jobs.sqlite"))
    }
}

extension Dictionary where Key == String, Value == Any {
    subscript(string key: String) -> String? { self[key] as? String }
    subscript(number key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
}
