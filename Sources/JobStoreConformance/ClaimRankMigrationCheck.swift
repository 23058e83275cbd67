import JobEngine
import TaskContract
import Testing

/// Checks that a store migrating to ranks in claim order (``ClaimOrder``) keeps the order its
/// stored chunks had, index order, and ranks the chunks of jobs stored after it: for the SQLite and
/// PostgreSQL stores' migration tests alike.
/// - Parameters:
///   - old: opens the store at the version before ranks, empty.
///   - migrated: opens the same store, migrated to the newest version.
public func checkClaimRanksMigration(old: () throws -> any LeasingJobStore, migrated: () throws -> any LeasingJobStore) throws {
    /// A job whose encode chunks (the odd ones of ``makeChunks(_:)``) are expected to take four times as long.
    func submitted() throws -> JobRecord {
        var job = try makeDetachedJob(state: .running, unitsTotal: 3)
        job.progress.costs = UnitCostModel(seeds: [.render: 1, .encode: 4])
        return job
    }
    let before = try old().insert(try submitted(), chunks: makeChunks(3))
    let store = try migrated()
    let after = try store.insert(try submitted(), chunks: makeChunks(3))
    var claimed: [(JobID, Int)] = []
    while let lease = try store.claimChunk(worker: "w", lease: .seconds(60), job: nil, hasGPU: false) {
        claimed.append((lease.jobID, lease.chunkIndex))
    }
    #expect(claimed.map(\.0) == [before.id, before.id, before.id, after.id, after.id, after.id], "the older job first")
    #expect(claimed.map(\.1) == [0, 1, 2, 1, 0, 2], "index order for the job stored before ranks, the longest first after")
}
