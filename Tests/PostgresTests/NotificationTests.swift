import Postgres
import PostgresTestKit
import Testing

/// `LISTEN`/`NOTIFY` between sessions, waited for with a deadline. Each test listens on a channel
/// named after its own schema: channels belong to the database, which tests running at once share.
struct NotificationTests {
    @Test func aNotificationReachesAnotherSessionBeforeTheDeadline() throws {
        try PostgresTestSchema.with { schema in
            let listener = try schema.connect()
            let sender = try schema.connect()
            let channel = "cancel \"jobs\"; -- \(schema.name)"
            try listener.listen(channel)
            try sender.notify(channel, payload: "job 'é🎬'")
            let received = try listener.notifications(until: .now + .seconds(30))
            #expect(received == [PostgresNotification(channel: channel, payload: "job 'é🎬'", senderProcessID: sender.serverProcessID)])
        }
    }

    @Test func waitingEndsEmptyAtTheDeadlineWhenNothingIsSent() throws {
        try PostgresTestSchema.with { schema in
            let listener = try schema.connect()
            try listener.listen(schema.name)
            #expect(try listener.notifications(until: .now + .milliseconds(100)).isEmpty)
            #expect(try listener.notifications(until: .now - .seconds(1)).isEmpty)
        }
    }

    @Test func notificationsArriveOnlyWhenTheSendersTransactionCommits() throws {
        try PostgresTestSchema.with { schema in
            let listener = try schema.connect()
            let sender = try schema.connect()
            try listener.listen(schema.name)
            struct Abandon: Error {}
            _ = try? sender.withTransaction {
                try sender.notify(schema.name, payload: "rolled back")
                throw Abandon()
            }
            try sender.withTransaction {
                try sender.notify(schema.name, payload: "first")
                try sender.notify(schema.name, payload: "second")
                #expect(try listener.notifications(until: .now + .milliseconds(50)).isEmpty, "nothing before COMMIT")
            }
            var payloads: [String] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while payloads.count < 2, ContinuousClock.now < deadline {
                payloads += try listener.notifications(until: deadline).map(\.payload)
            }
            #expect(payloads == ["first", "second"])
        }
    }
}
