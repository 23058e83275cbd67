import Foundation
import JobEngine
import JobStoreConformance
import PostgresJobStore
import PostgresTestKit
import Testing

/// A cancel asked for on one machine reaches the workers of the job through LISTEN/NOTIFY.
struct CancelListenerTests {
    @Test func aCancelRequestedThroughAnotherStoreIsHeardWithTheJobsID() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let other = try store.insert(try makeJob(), chunks: makeChunks(1))
            let listener = try CancelListener(schema.url, settings: ["search_path": schema.name])
            #expect(try listener.cancels(until: .now).isEmpty)

            try schema.openStore().requestCancel(job.id)
            var heard: Set<JobID> = []
            let deadline = ContinuousClock.now + .seconds(30)
            while heard.isEmpty, ContinuousClock.now < deadline {
                heard = try listener.cancels(until: deadline)
            }
            #expect(heard == [job.id], "heard within 30 s")
            #expect(try !store.isCancelRequested(other.id))
        }
    }

    @Test func aCancelAskedForBeforeAnyoneListenedIsStillSeenThroughTheFlag() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            try store.requestCancel(job.id)
            let listener = try CancelListener(schema.url, settings: ["search_path": schema.name])
            #expect(try listener.cancels(until: .now).isEmpty)
            #expect(try store.isCancelRequested(job.id))
        }
    }
}
