import Postgres
import PostgresTestKit
import Testing

/// `LISTEN`/`NOTIFY` between sessions, waited for with a deadline.
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
            try listener.listen("quiet")
            #expect(try listener.notifications(until: .now + .milliseconds(100)).isEmpty)
            #expect(try listener.notifications(until: .now - .seconds(1)).isEmpty)
        }
    }

    @Test func notificationsArriveOnlyWhenTheSendersTransactionCommits() throws {
        try PostgresTestSchema.with { schema in
            let listener = try schema.connect()
            let sender = try schema.connect()
            try listener.listen("jobs")
            struct Abandon: Error {}
            _ = try? sender.withTransaction {
                try sender.notify("jobs", payload: "rolled back")
                throw Abandon()
            }
            try sender.withTransaction {
                try sender.notify("jobs", payload: "first")
                try sender.notify("jobs", payload: "second")
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
