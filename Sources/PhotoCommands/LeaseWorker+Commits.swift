import JobEngine
import MediaJobCLI

/// A worker's commits: a slot hands a finished chunk's commit to the worker's ``LeaseCommitter``
/// and claims its next chunk; the chunk stays in flight, its lease renewed by its heartbeat, until
/// the commit landed.
extension LeaseWorker {
    /// Hands the commit of a chunk that ran under `claimed` to the committer (waiting while its
    /// allowance has no room for it); once it landed, the chunk's heartbeat ends and the chunk is
    /// no longer in flight.
    package func handOver(_ claimed: ChunkLease, key: HeldChunks.Key, _ checkpoint: Checkpoint, of job: JobRecord,
                  heartbeat: Heartbeat) {
        do {
            try FaultPoints.step(.leaseCommit, operation: "commit", path: claimed.outputName) {}
        } catch {
            _ = heartbeat.end()
            held.ended(key)
            return landed(.failure(error), claimed, of: job)
        }
        held.committing(key)
        commits.submit(claimed, checkpoint: checkpoint) { [self] answer in
            landed(answer, claimed, of: job)
            _ = heartbeat.end()
            held.ended(key)
        }
    }

    /// What a commit's answer does: a committed package stage removes the job's workspace; a
    /// refused commit (the lease's epoch is no longer the chunk's) removes the outputs, which are
    /// not the chunk's, and the store journals it; a commit that could not land leaves the chunk to
    /// be redone once its lease runs out.
    private func landed(_ answer: Result<LeaseCommit, any Error>, _ claimed: ChunkLease, of job: JobRecord) {
        switch answer {
        case .success(.committed) where claimed.chunkIndex == ChunkLease.packageIndex:
            scheduler.removeWorkspace(of: job)
        case .success(.committed):
            break
        case .success(.refused):
            console.err("Worker \(name): the commit of chunk \(claimed.chunkIndex) of job \(claimed.jobID.short) was "
                + "refused (epoch \(claimed.epoch) lost its lease); its output \(claimed.outputName) is removed.")
            discardOutputs(of: claimed, in: job)
            // A job completed meanwhile had its workspace removed; writing the output made it again.
            if let current = try? store.job(job.id), current.state == .completed || current.state == .discarded {
                scheduler.removeWorkspace(of: job)
            }
        case .failure(let error):
            console.err("Worker \(name): could not commit chunk \(claimed.chunkIndex) of job \(claimed.jobID.short): "
                + "\(error.personCause); its lease will run out and another worker will redo it.")
        }
    }
}
