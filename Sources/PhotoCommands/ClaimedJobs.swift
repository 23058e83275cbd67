import JobEngine
import Synchronization

/// The record of the job a worker's slots last claimed a chunk of, kept while their claims report
/// the same version of it (``ChunkLease/jobVersion``): a job's settings and workspace change only
/// with its record (a replan), so the worker reads the job once, not before every chunk.
///
/// A record read after a claim that reported version `v` is at `v` or later; a record never
/// returns to a version it left, so a later claim that reports `v` again means the record did not
/// change in between, and the one read then is still current. Only the last job is kept: a worker
/// taking turns between jobs reads each again, and one that ran thousands holds one record.
package final class ClaimedJobs: Sendable {
    private let last = Mutex<(version: Int64, job: JobRecord)?>(nil)

    /// The job `claimed` is a chunk of: the record read after an earlier claim that reported the
    /// same version, else the one `store` holds now (kept when the claim reported a version).
    /// - Returns: `nil` when the store has no such job.
    package func job(of claimed: ChunkLease, in store: any JobStore) throws -> JobRecord? {
        if let version = claimed.jobVersion, let kept = last.withLock({ $0 }), kept.job.id == claimed.jobID,
           kept.version == version {
            return kept.job
        }
        guard let job = try store.job(claimed.jobID) else { return nil }
        if let version = claimed.jobVersion { last.withLock { $0 = (version, job) } }
        return job
    }
}
