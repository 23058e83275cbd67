import Foundation
import Testing
@testable import MediaJobCLI

/// Which store `--store` and `MEDIAJOB_STORE` select, and how a URL is repeated without its password.
struct StoreLocationTests {
    private let state = URL(fileURLWithPath: "/var/lib/mediajob")

    @Test func withoutEitherTheStateFoldersSQLiteFileIsTheStore() throws {
        #expect(try StoreLocation.select(option: nil, environment: [:], stateDirectory: state)
                    == .sqlite(path: "/var/lib/mediajob/jobs.sqlite"))
        #expect(try StoreLocation.select(option: nil, environment: ["MEDIAJOB_STORE": ""], stateDirectory: state)
                    == .sqlite(path: "/var/lib/mediajob/jobs.sqlite"))
    }

    @Test(arguments: ["postgresql://farm@db1/media", "postgres://db1/media?sslmode=require", "host=db1 dbname=media"])
    func aPostgreSQLConnectionStringIsHandedOnAsItIs(_ value: String) throws {
        #expect(try StoreLocation.select(option: value, environment: [:], stateDirectory: state)
                    == .postgres(connectionString: value))
        #expect(try StoreLocation.select(option: nil, environment: ["MEDIAJOB_STORE": value], stateDirectory: state)
                    == .postgres(connectionString: value))
    }

    @Test func theOptionWinsOverTheVariable() throws {
        #expect(try StoreLocation.select(option: "postgresql://a/b", environment: ["MEDIAJOB_STORE": "postgresql://c/d"],
                                         stateDirectory: state) == .postgres(connectionString: "postgresql://a/b"))
    }

    @Test(arguments: [
        ("postgresql://farm:s3cret@db1:5432/media?sslmode=require", "postgresql://farm@db1:5432/media?sslmode=require"),
        ("postgresql://farm@db1/media?password=s3cret&sslmode=require", "postgresql://farm@db1/media?sslmode=require"),
        ("host=db1 password=s3cret dbname=media", "host=db1 dbname=media"),
    ])
    func aRepeatedConnectionStringLeavesThePasswordOut(_ given: String, _ shown: String) {
        #expect(StoreLocation.withoutPassword(given) == shown)
    }
}
