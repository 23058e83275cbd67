import Foundation
@testable import Postgres
import PostgresTestKit
import Testing

/// A password given in a connection string, or found in a password file, never shows in an error
/// or a description.
struct PasswordSecrecyTests {
    static let password = "Secr3t-Pa55word"

    /// Every text a person or a log could see of `value`.
    static func texts(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var texts = [String(describing: value), String(reflecting: value), dumped]
        if let error = value as? PostgresError {
            texts += [error.message, error.detail, error.statement ?? "", error.target?.description ?? "", error.localizedDescription]
        }
        return texts
    }

    static func expectNoPassword(in value: Any, _ password: String = password, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts(of: value) {
            #expect(!text.contains(password), "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aRefusedConnectionNamesTheTargetButNotThePassword() throws {
        let error = try #require(throws: PostgresError.self) {
            try Connection("postgresql://alice:\(Self.password)@127.0.0.1:1/films?connect_timeout=10")
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.target == ConnectionTarget(host: "127.0.0.1", port: "1", database: "films", user: "alice"))
        #expect(error.message.contains("\"films\"") && error.message.contains("\"alice\"") && error.message.contains("127.0.0.1:1"))
        Self.expectNoPassword(in: error)
    }

    @Test(arguments: [
        "postgresql://alice:\(password)@127.0.0.1:notaport/films",
        "postgresql://alice:\(password)%zz@127.0.0.1/films",
        "postgresql://alice:\(password)@[::1/films",
        "postgresql://alice:\(password)/x@127.0.0.1/films",
        "postgresql://alice:\(password)@127.0.0.1:1/films?bogus=\(password)",
        "postgresql://127.0.0.1:1/films?user=alice&password=\(password)",
        "host=127.0.0.1 port=1 user=alice password=\(password) dbname=films",
        "host=127.0.0.1 port=1 password='\(password) with spaces' user=alice",
        "host=127.0.0.1 password=\(password) nonsense",
        "host=127.0.0.1 password=\(password) bogus_option=1",
        "password='\(password)",
    ])
    func aMalformedOrRefusedConnectionStringNeverShowsThePassword(connectionString: String) throws {
        let error = try #require(throws: PostgresError.self) { try Connection(connectionString) }
        #expect(error.kind == .connectionFailed)
        Self.expectNoPassword(in: error)
        Self.expectNoPassword(in: error, String(Self.password.prefix(8)))
    }

    @Test func aWrongPasswordAndAMissingDatabaseAreReportedWithoutEitherPassword() throws {
        let url = try #require(URLComponents(string: try PostgresTestCluster.url()))
        let realPassword = try #require(url.password)
        var wrong = url
        wrong.password = Self.password
        let refused = try #require(throws: PostgresError.self) { try Connection(wrong.string!) }
        #expect(refused.message.contains("password authentication failed"))
        Self.expectNoPassword(in: refused)
        var missing = url
        missing.path = "/no_such_database"
        let absent = try #require(throws: PostgresError.self) { try Connection(missing.string!) }
        #expect(absent.message.contains("no_such_database"))
        Self.expectNoPassword(in: absent, realPassword)
    }

    @Test func noBridgeValueDescribesThePasswordOfALiveConnection() throws {
        try PostgresTestSchema.with { schema in
            let password = try #require(URLComponents(string: schema.url)?.password)
            let connection = try schema.connect()
            try connection.listen("jobs")
            let statement = PreparedStatement("two", "SELECT 2 AS two, NULL::text AS nothing")
            let result = try connection.query(statement)
            let failure = try #require(throws: PostgresError.self) { try connection.query("SELECT * FROM no_such_table") }
            let runner = MigrationRunner([Migration("1-x", ["CREATE TABLE x (id int)"])])
            let values: [Any] = [
                connection, connection.target, result, result[0], failure, statement, runner, runner.migrations[0], runner.lock,
                PostgresNotification(channel: "jobs", payload: "p", senderProcessID: 1), PostgresValue.text("t"),
                IsolationLevel.serializable, PostgresType.bytea, SecretRedactor(connectionString: schema.url),
                SecretRedactor(connection: connection.handle),
            ]
            for value in values {
                Self.expectNoPassword(in: value, password)
                #expect(!String(describing: value).isEmpty)
            }
            #expect(String(describing: connection).contains(schema.name) == false)
            #expect(String(describing: connection).contains("\"mediajob_test\""))
        }
    }

    @Test func aPasswordFromAPasswordFileIsUsedAndNeverShown() throws {
        try PostgresTestSchema.with { schema in
            var url = try #require(URLComponents(string: schema.url))
            let password = try #require(url.password)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            try "\(url.host!):\(url.port!):*:\(url.user!):\(password)\n".write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            url.password = nil
            url.queryItems = [URLQueryItem(name: "passfile", value: file.path)]
            let connection = try Connection(url.string!)
            #expect(try connection.query("SELECT current_user AS me")[0]["me"] == url.user!)
            let failure = try #require(throws: PostgresError.self) { try connection.query("SELECT $1::int AS n", password) }
            Self.expectNoPassword(in: failure, password)
            Self.expectNoPassword(in: connection, password)
        }
    }
}
