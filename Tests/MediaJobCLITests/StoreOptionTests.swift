import Foundation
import PostgresTestKit
import Testing

/// `--store` and `MEDIAJOB_STORE` keep jobs in PostgreSQL; without them, in the state folder.
@Suite struct StoreOptionTests {
    @Test func aSelfTestKeptInPostgreSQLIsListedThroughTheOptionAndTheVariableAndNothingIsInTheStateFolder() throws {
        try PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let run = try fixture.run("selftest", fixture.selftest(units: 4, unitMilliseconds: 5) + ["--store", store])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try fixture.result().committed == Array(0..<4))
            let id = try #require(run.events.first?[string: "job_id"])

            for (arguments, environment) in [(["--store", store], [:]), ([], ["MEDIAJOB_STORE": store])] {
                let jobs = try fixture.run("jobs", ["--json"] + arguments, environment: environment)
                let list = try #require(try JSONSerialization.jsonObject(with: Data(jobs.stdout.utf8)) as? [[String: Any]])
                #expect(list.map { $0[string: "job_id"] } == [id])
                #expect(list.first?[string: "state"] == "completed")
            }
            let stored = try schema.connect().query("SELECT state FROM jobs").map { try $0["state"] as String }
            #expect(stored == ["completed"])
            #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("state/jobs.sqlite")))
            #expect(try fixture.run("jobs", ["--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    @Test func thePasswordOfTheStoresURLAppearsInNoOutputErrorOrJournal() throws {
        try PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let password = try #require(URLComponents(string: schema.url)?.password)
            let store = schema.storeURL
            var outputs: [String] = []
            let run = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 5) + ["--fail-at", "1", "--store", store])
            #expect(run.status == 1, "the self-test fails at its unit 1")
            let id = try #require(run.events.first?[string: "job_id"])
            for arguments in [["status", id, "--journal"], ["status", id], ["jobs"], ["resume", "nonexistent"]] {
                let result = try fixture.run(arguments[0], Array(arguments.dropFirst()) + ["--store", store])
                outputs += [result.stdout, result.stderr]
            }
            var wrong = try #require(URLComponents(string: store))
            wrong.password = password + "-wrong"
            let refused = try fixture.run("jobs", ["--store", try #require(wrong.string)])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("127.0.0.1"), "\(refused.stderr)")
            outputs += [run.stdout, run.stderr, refused.stdout, refused.stderr]
            #expect(outputs.joined().contains("Error:"))
            #expect(outputs.allSatisfy { !$0.contains(password) })
            let journal = try schema.connect().query("SELECT detail FROM journal").map { try $0["detail"] as String }
            #expect(!journal.isEmpty)
            #expect(journal.allSatisfy { !$0.contains(password) })
        }
    }

    @Test(arguments: ["sqlite:///tmp/jobs.db", "/var/lib/mediajob", "db1"])
    func aStoreThatIsNotAPostgreSQLConnectionStringIsAUsageError(_ value: String) throws {
        let fixture = CLIFixture()
        let result = try fixture.run("jobs", ["--store", value])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--store takes a postgresql:// URL"), "\(result.stderr)")
        let fromEnvironment = try fixture.run("jobs", [], environment: ["MEDIAJOB_STORE": value])
        #expect(fromEnvironment.status == 64)
        #expect(fromEnvironment.stderr.contains("MEDIAJOB_STORE takes a postgresql:// URL"), "\(fromEnvironment.stderr)")
    }
}

extension PostgresTestSchema {
    /// The cluster's URL with this schema as the session's `search_path` (libpq's `options`).
    var storeURL: String { url + "?options=-csearch_path%3D" + name }
}
