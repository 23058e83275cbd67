import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import Testing

/// A claim does not wait for the WAL flush, so a crash of the server can lose it after its worker
/// got the lease: the chunk is then as it was, and the next claim hands the same epoch out again.
/// The claims' tokens keep the two leases apart, even for one worker's two slots (one name).
struct LostClaimTests {
    @Test func aClaimLostInACrashHandsItsEpochOutAgainAndItsTokenFencesTheFirstLease() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            // The WAL writer writes unflushed commits out every wal_writer_delay; at its longest (10 s)
            // it does not wake between a claim and the kill that follows it within milliseconds, but
            // should it, that trial's claim survives and the next trial tries again.
            let settings = try FileHandle(forWritingTo: URL(fileURLWithPath: cluster.folder + "/data/postgresql.conf"))
            try settings.seekToEnd()
            try settings.write(contentsOf: Data("wal_writer_delay = 10s\n".utf8))
            try settings.close()
            try cluster.restart()

            let store = try PostgresJobStore(cluster.url)
            var lostOne = false
            for trial in 1...3 where !lostOne {
                let job = try store.insert(try makeJob(workKey: "trial-\(trial)", state: .running, unitsTotal: 1),
                                           chunks: makeChunks(1))
                let lost = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id))
                try cluster.kill()
                try cluster.start()
                let epoch: Int64? = try Connection(cluster.url)
                    .query("SELECT epoch FROM chunks WHERE job_id = $1 AND idx = 0", job.id.rawValue).first?["epoch"]
                guard epoch == 0 else { continue } // the claim was written out before the kill
                lostOne = true

                let again = try #require(try store.claimChunk(worker: "w", lease: .seconds(60), job: job.id),
                                         "the chunk is free again once the crash lost its claim")
                #expect(again.epoch == lost.epoch, "the lost claim's epoch is handed out a second time")
                #expect(again.token != lost.token && again.outputName != lost.outputName)
                #expect(try store.renew(lost) == .lost)
                let done = Checkpoint(jobID: job.id, chunkIndex: 0, stage: .render, kind: job.kind, costSeconds: 1, executor: "cpu",
                                      progress: progress(after: job.progress, total: 1, stage: .render, cost: 1))
                #expect(try store.commit(lost, checkpoint: done) == .refused)
                #expect(try store.release(lost) == false)
                #expect(try store.renew(again) == .renewed(cancelRequested: false))
                #expect(try store.commit(again, checkpoint: done) == .committed)
                #expect(try store.chunks(of: job.id).first?.output == again.outputName, "the second claim's output is the chunk's")
                let check = LeaseJournalCheck(try store.journal(of: job.id), chunkKeys: [0: "c0"])
                #expect(check.violations == [])
                #expect(check.refusedCommits == 1)
            }
            try #require(lostOne, "one of three claims killed within milliseconds was lost with the server")
        }
    }
}
