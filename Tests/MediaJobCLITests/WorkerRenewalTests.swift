import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// A worker renews its leases on a connection of its own, so that its claims and commits, waiting
/// on the store, do not hold its renewals up (and a renewal that hangs does not hold them up).
@Suite struct WorkerRenewalTests {
    /// Another session locks the jobs table (every claim and commit updates a job's row) while the
    /// job's one chunk is held in flight, and the worker's other slot, looking for work, waits
    /// behind that lock in its claim on the worker's connection for more than two leases. (With a
    /// second chunk, that slot could instead have claimed it before the lock and wait in its commit,
    /// whose lease is no longer renewed once its work is done: a commit is fenced by its epoch.)
    /// The held chunk's lease is renewed all along, by the database's clock, so it is neither
    /// fenced nor rescued: once the lock goes, it commits under the epoch of its one claim.
    @Test func renewalsGoOnWhileTheWorkersClaimsWaitBehindALock() async throws {
        try await PostgresTestSchema.with { schema in
            let fixture = CLIFixture()
            let store = schema.storeURL
            let id = try submitDetached(units: 1, unitMilliseconds: 10, in: fixture, store: store)
            let hold = try HeldStep(in: fixture.folder, name: "worker.fifo")
            let worker = try fixture.startWorker("worker", store: store, slots: 2, lease: "2",
                                                 environment: hold.environment(point: "chunk", hit: 1))
            try #require(hold.waitUntil(worker, isHeldAt: "the job's one chunk"))

            // The lock is held for as long as the waits below take on a loaded machine: its session's
            // idle-in-transaction limit is well beyond their deadlines.
            let locker = try schema.connect(idleInTransactionSessionTimeout: .seconds(600))
            try locker.query("BEGIN")
            try locker.query("LOCK TABLE jobs IN SHARE MODE")
            let watcher = try schema.connect()
            try await waitUntil("the worker's other slot waits for the lock on the jobs table", limit: .seconds(120)) {
                try watcher.query("""
                    SELECT 1 AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                    WHERE l.relation = 'jobs'::regclass AND NOT l.granted AND a.application_name = 'mediajob'
                    """).isEmpty == false
            }
            func heldLease() throws -> (chunk: Int, expires: Double)? {
                try watcher.query("""
                    SELECT idx, extract(epoch FROM lease_expires_at)::float8 AS expires FROM chunks
                    WHERE job_id = $1 AND NOT done AND lease_owner IS NOT NULL AND lease_expires_at > now()
                    """, id.rawValue).first.map { (try $0["idx"], try $0["expires"]) }
            }
            let first = try #require(try heldLease(), "the held chunk's lease is live")
            try await waitUntil("the held chunk's lease is renewed past two more leases", limit: .seconds(120)) {
                guard let lease = try heldLease() else {
                    Issue.record("the held chunk's lease ran out while the worker's claims waited")
                    return true
                }
                return lease.expires > first.expires + 4
            }
            #expect(try heldLease()?.chunk == first.chunk)
            #expect(try watcher.query("""
                SELECT 1 AS waiting FROM pg_locks WHERE relation = 'jobs'::regclass AND NOT granted
                """).isEmpty == false, "the worker's other slot waited on the lock all along")

            try locker.query("COMMIT")
            hold.release()
            let reader = try PostgresJobStore(store)
            try await waitUntil("job \(id.short) is completed by the worker", limit: .seconds(120)) {
                try reader.job(id)?.state == .completed
            }
            try expectWorkersRanEveryUnitOnce([worker], units: 1, job: id, in: reader, fixture: fixture)
            let journal = try reader.journal(of: id)
            #expect(!journal.contains { $0.event == .fenced }, "the held chunk was never fenced")
            #expect(try leaseCheck(journal, of: id, in: reader).rescues == 0)
        }
    }
}
