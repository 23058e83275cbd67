import Postgres
import PostgresTestKit
import Testing

/// `withTransaction` commits all or nothing, and reports lost races as retryable.
struct TransactionTests {
    /// A schema with `accounts(id, balance)` holding accounts 1 and 2, and two connections to it.
    struct Bank {
        let schema: PostgresTestSchema
        let first: Connection
        let second: Connection

        init(_ schema: PostgresTestSchema) throws {
            self.schema = schema
            first = try schema.connect()
            second = try schema.connect()
            try first.query("CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)")
            try first.query("INSERT INTO accounts VALUES (1, 100), (2, 100)")
        }

        func balance(_ id: Int, seenBy connection: Connection) throws -> Int {
            try connection.query("SELECT balance FROM accounts WHERE id = $1", id)[0]["balance"]
        }
    }

    struct Refusal: Error {}

    @Test func aCommittedTransactionIsSeenByOtherSessions() throws {
        try PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            let moved = try bank.first.withTransaction {
                try bank.first.query("UPDATE accounts SET balance = balance - 30 WHERE id = 1")
                try bank.first.query("UPDATE accounts SET balance = balance + 30 WHERE id = 2")
                #expect(try bank.balance(1, seenBy: bank.second) == 100, "not visible before COMMIT")
                return 30
            }
            #expect(moved == 30)
            #expect(try bank.balance(1, seenBy: bank.second) == 70)
            #expect(try bank.balance(2, seenBy: bank.second) == 130)
            #expect(!bank.first.isInTransaction)
        }
    }

    @Test func aThrowRollsEverythingBack() throws {
        try PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            #expect(throws: Refusal.self) {
                try bank.first.withTransaction {
                    try bank.first.query("UPDATE accounts SET balance = 0 WHERE id = 1")
                    #expect(bank.first.isInTransaction)
                    throw Refusal()
                }
            }
            #expect(!bank.first.isInTransaction)
            #expect(try bank.balance(1, seenBy: bank.second) == 100)
            #expect(try bank.balance(1, seenBy: bank.first) == 100)
        }
    }

    @Test func aFailedStatementInsideMakesCommitReportTheRollback() throws {
        try PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            let error = try #require(throws: PostgresError.self) {
                try bank.first.withTransaction {
                    try bank.first.query("UPDATE accounts SET balance = 0 WHERE id = 1")
                    _ = try? bank.first.query("INSERT INTO accounts VALUES (1, 1)")
                }
            }
            #expect(error.sqlState == "25P02")
            #expect(try bank.balance(1, seenBy: bank.second) == 100)
        }
    }

    @Test func transactionsDoNotNestAndAdvisoryLocksNeedOne() throws {
        try PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            let nested = try #require(throws: PostgresError.self) {
                try bank.first.withTransaction { try bank.first.withTransaction {} }
            }
            #expect(nested.kind == .misuse)
            let lock = try #require(throws: PostgresError.self) { try bank.first.lockForTransaction(AdvisoryLockKey("x")) }
            #expect(lock.kind == .misuse)
        }
    }

    @Test func aConcurrentUpdateIsASerializationFailureThatCanBeRetried() throws {
        try PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            var attempts = 0
            while true {
                attempts += 1
                do {
                    try bank.first.withTransaction(.repeatableRead) {
                        let balance = try bank.balance(1, seenBy: bank.first)
                        if attempts == 1 {
                            try bank.second.query("UPDATE accounts SET balance = balance + 5 WHERE id = 1")
                        }
                        try bank.first.query("UPDATE accounts SET balance = $1 WHERE id = 1", balance * 2)
                    }
                    break
                } catch let error as PostgresError where attempts == 1 {
                    #expect(error.kind == .serializationFailure)
                    #expect(error.sqlState == "40001")
                    #expect(error.isRetryable)
                    #expect(error.category == .resource)
                    #expect(!bank.first.isInTransaction)
                }
            }
            #expect(attempts == 2)
            #expect(try bank.balance(1, seenBy: bank.second) == 210, "the retry saw the other session's +5")
        }
    }

    @Test func aDeadlockIsReportedAsRetryableToExactlyOneSide() async throws {
        try await PostgresTestSchema.with { schema in
            let bank = try Bank(schema)
            let left = try await bank.schema.connectQueued()
            let right = try await bank.schema.connectQueued()
            let leftProcess = try await left.run { connection in
                try connection.query("BEGIN")
                try connection.query("UPDATE accounts SET balance = balance - 1 WHERE id = 1")
                return connection.serverProcessID
            }
            try await right.run { connection in
                try connection.query("BEGIN")
                try connection.query("UPDATE accounts SET balance = balance - 1 WHERE id = 2")
            }
            let leftSecond = left.start { try $0.query("UPDATE accounts SET balance = 0 WHERE id = 2").rowsAffected }
            try await waitUntil("the left session waits for the right one's row lock") {
                try bank.first.query(
                    "SELECT count(*) AS n FROM pg_locks WHERE pid = $1 AND NOT granted", leftProcess
                )[0]["n"] == 1
            }
            let rightSecond = await outcome { try await right.run { try $0.query("UPDATE accounts SET balance = 0 WHERE id = 1").rowsAffected } }
            let outcomes = [await outcome { try await leftSecond.value() }, rightSecond]
            let failures = outcomes.compactMap { outcome -> PostgresError? in
                if case .failure(let error) = outcome { return error as? PostgresError }
                return nil
            }
            #expect(failures.count == 1, "\(outcomes)")
            #expect(failures.first?.sqlState == "40P01")
            #expect(failures.first?.kind == .serializationFailure)
            #expect(failures.first?.isRetryable == true)
            try await left.run { _ = try $0.query("ROLLBACK") }
            try await right.run { _ = try $0.query("ROLLBACK") }
        }
    }

    @Test func theSessionHasTheIdleInTransactionTimeoutItAskedFor() throws {
        try PostgresTestSchema.with { (schema) throws in
            let show = "SELECT current_setting('idle_in_transaction_session_timeout') AS value"
            #expect(try schema.connect().query(show)[0]["value"] == "1min")
            #expect(try schema.connect(idleInTransactionSessionTimeout: .seconds(5)).query(show)[0]["value"] == "5s")
        }
    }

    @Test func theServerEndsASessionLeftIdleInATransaction() throws {
        try PostgresTestSchema.with { schema in
            let connection = try schema.connect(idleInTransactionSessionTimeout: .milliseconds(200))
            let error = try #require(throws: PostgresError.self) {
                try connection.withTransaction {
                    try connection.query("SELECT 1")
                    _ = try connection.notifications(until: .now + .seconds(30))
                }
            }
            #expect(error.kind == .connectionLost)
            #expect(!connection.isConnected)
        }
    }
}

/// What `body` returned or threw.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
