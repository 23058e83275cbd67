import Foundation
import JobEngine
import JobStoreConformance
import PostgresJobStore
import PostgresTestKit
import Testing

/// A cancel asked for on one machine reaches the workers of the job through LISTEN/NOTIFY.
struct AnnouncementListenerTests {
    @Test func aCancelRequestedThroughAnotherStoreIsHeardWithTheJobsID() throws {
        try PostgresTestSchema.with { schema in
            let store = try schema.openStore()
            let job = try store.insert(try makeJob(), chunks: makeChunks(1))
            let other = try store.insert(try makeJob(), chunks: makeChunks(1))
            let listener = try AnnouncementListener(schema.url, settings: ["search_path": schema.name])

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
            let listener = try AnnouncementListener(schema.url, settings: ["search_path": schema.name])
            #expect(try !listener.cancels(until: .now).contains(job.id))
            #expect(try store.isCancelRequested(job.id))
        }
    }

    @Test func aStoredJobAResumedOneAndOneWhoseLastChunkIsDoneAreAnnouncedAsWork() throws {
        try PostgresTestSchema.with { schema in
            let listener = try AnnouncementListener(schema.url, settings: ["search_path": schema.name])
            let store = try schema.openStore()
            /// Waits (30 s at most) until `job` is announced as work; other tests announce theirs on the same channel.
            func heard(_ job: JobID) throws -> Bool {
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline {
                    if try listener.announcements(until: deadline).work.contains(job) { return true }
                }
                return false
            }

            let job = try store.insert(try makeJob(state: .running, unitsTotal: 2), chunks: makeChunks(2))
            #expect(try heard(job.id), "a stored job is announced")
            let first = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            let second = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
            for lease in [first, second] {
                #expect(try store.commit(lease, checkpoint: Checkpoint(
                    jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 1,
                    executor: "cpu", progress: progress(after: job.progress, total: 2, stage: lease.plan.stage, cost: 1)))
                    == .committed)
                if lease == first {
                    #expect(try !listener.announcements(until: .now + .milliseconds(200)).work.contains(job.id),
                            "a commit that leaves a chunk to do announces nothing")
                }
            }
            #expect(try heard(job.id), "the last chunk's commit announces the package stage")
            try store.transition(job.id, to: StateChange(state: .paused), journal: nil)
            try store.transition(job.id, to: StateChange(state: .running), journal: nil)
            #expect(try heard(job.id), "a resumed job is announced")
        }
    }
}
