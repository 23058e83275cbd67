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

            // The channel is the database's: tests running beside this one announce their own jobs on it too.
            try schema.openStore().requestCancel(job.id)
            var heard: Set<JobID> = []
            let deadline = ContinuousClock.now + .seconds(30)
            while !heard.contains(job.id), ContinuousClock.now < deadline {
                heard.formUnion(try listener.cancels(until: deadline))
            }
            #expect(heard.contains(job.id), "heard within 30 s")
            #expect(!heard.contains(other.id))
            #expect(try !store.isCancelRequested(other.id))
        }
    }

    @Test func aCancelAskedForBeforeAnyoneListenedIsStillSeenThroughTheFlag() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            try store.requestCancel(job.id)
            let listener = try CancelListener(schema.url, settings: ["search_path": schema.name])
            #expect(try !listener.cancels(until: .now).contains(job.id))
            #expect(try store.isCancelRequested(job.id))
        }
    }
}
