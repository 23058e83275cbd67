import Foundation
import TaskContract

/// The engine's half of a worker that holds leases on chunks (a ``LeasingJobStore``'s
/// `mediajob worker`): one chunk of a stored job, or its package stage, run with the job's
/// registered kind in the job's workspace, committing its outputs into the lease's own folder
/// (``Workspace/leased(output:)``). Nothing is recorded here: the worker commits what these return
/// under its lease, so that a worker whose lease was taken over cannot record it.
extension JobScheduler {
    /// Runs chunk `index` (`plan`) of `job` in this process.
    /// - Parameters:
    ///   - job: the job's record (its settings and workspace); the progress the returned checkpoint
    ///     moves on from is read from the store as the chunk ends, with the owed work.
    ///   - output: the lease's output name (`<key>.<epoch>`), naming the folder the chunk commits into.
    ///   - task: the chunk's task; expiring it stops the chunk where the kind checks for a stop.
    /// - Returns: what to commit: the chunk's cost, executor, and the progress that includes it.
    /// - Throws: ``SchedulerError/unregisteredKind(_:_:)`` when no kind here runs the job; what the chunk throws.
    package func runLeasedChunk(_ index: Int, plan: PlannedChunk, of job: JobRecord, output: String,
                                task: ContinuedTask, leavesUnreachableInputsToOthers: Bool = false) async throws -> Checkpoint {
        let kind = try leasedKind(of: job)
        let workspace = Workspace(directory: URL(fileURLWithPath: job.workspace)).leased(output: output)
        try workspace.prepare()
        let context = JobContext(workspace: workspace, task: task, leavesUnreachableInputsToOthers: leavesUnreachableInputsToOthers) {
            [store, id = job.id] event, detail in
            try? store.append(JournalEntry(jobID: id, event: event, detail: detail.merging(["chunk": String(index)]) { $1 }))
        }
        let clock = ContinuousClock()
        let began = clock.now
        try context.checkStop()
        try FaultPoints.step(.chunk, operation: "chunk", path: String(index)) {}
        let executor = try await kind.chunkRunner(job.spec)(plan, context)
        // A chunk stopped meanwhile (its lease lost) ends here, before the store calls below,
        // which may wait as long as the worker's renewal does on a connection gone silent.
        try context.checkStop()
        let cost = (clock.now - began).seconds
        // The progress other workers' chunks moved while this one ran, and the owed work from the
        // store's counters (reading every owed chunk here made each chunk's bookkeeping as slow as
        // the job is long), in one read.
        let landing = OwedChunk(index: index, stage: plan.stage, work: plan.work)
        let stored = try store.progressAndOwedWork(of: job.id)
        var current = job
        current.progress = stored.progress
        var tracker = ProgressTracker(snapshot: try ProgressTracker.seeded(current, kind: kind, store: store),
                                      owed: OwedChunks(work: stored.owed, landing: landing))
        tracker.chunkDone(landing, cost: cost, elapsed: cost)
        return Checkpoint(jobID: job.id, chunkIndex: index, stage: plan.stage, kind: job.kind, costSeconds: cost,
                          executor: executor, progress: tracker.snapshot, skipped: context.skippedByThisWork)
    }

    /// Assembles `job`'s result from its chunks' recorded outputs (never from a folder whose commit
    /// was refused or never made) and publishes it, as a job run in one process does (a destination
    /// already holding this very result is kept).
    /// - Parameters:
    ///   - index: the package stage's index among the job's chunks, for the checkpoint.
    ///   - output: the lease's output name, naming the folder the package stage assembles in.
    ///   - badItems: the job's bad items (``JobStore/badItems(of:)``) as the worker read them once
    ///     it claimed the package stage, when every chunk was done: the items the chunks skipped
    ///     are left out of the result and listed in it, as in one process. Not read again here.
    /// - Returns: what to commit: the finalisation's cost and the completed progress.
    package func publishLeasedJob(_ job: JobRecord, packageIndex index: Int, output: String, badItems: [BadItem],
                                  task: ContinuedTask) async throws -> Checkpoint {
        let kind = try leasedKind(of: job)
        let runner = JobRunner(store: store, kind: kind, record: job, task: task, chunksAtOnce: 1,
                               cancelPollInterval: cancelPollInterval, hostCondition: nil)
        let clock = ContinuousClock()
        let began = clock.now
        let skipped = badItems.filter { $0.outcome == .skipped && $0.chunkIndex != nil }
        let workspace = try Workspace(directory: URL(fileURLWithPath: job.workspace)).leased(output: output)
            .reading(outputs: try store.leaseOutputs(of: job.id))
        let context = JobContext(workspace: workspace, task: task, skipped: skipped.map(\.failure))
        let artifact = try await kind.finalize(job.spec, PlannedChunks(of: job.id, in: store), context)
        try store.recordBadItems(context.skippedByThisWork, outcome: .skipped, of: job.id, chunk: nil)
        try context.checkStop()
        try FaultPoints.step(.publish, operation: "rename", path: job.destination) { try runner.publish(artifact) }
        let cost = (clock.now - began).seconds
        var tracker = ProgressTracker(snapshot: job.progress, owed: OwedChunks())
        tracker.finished(finalizeCost: cost, elapsed: cost)
        return Checkpoint(jobID: job.id, chunkIndex: index, stage: .package, kind: job.kind, costSeconds: cost,
                          executor: nil, progress: tracker.snapshot)
    }

    /// How many of `job`'s chunks this process runs at once under leases: ``chunksAtOnce``, at most
    /// what the job's kind allows.
    package func leasedSlots(for job: JobRecord) -> Int {
        chunksAtOnce(for: registeredKind(for: job.request.identifier))
    }

    /// Shows `job`'s progress as stored on `task` (the bar of the process that submitted the job,
    /// while workers share it), with the committed count in the subtitle when the kind asks for it.
    package func showStoredProgress(of job: JobRecord, on task: ContinuedTask) {
        if registeredKind(for: job.request.identifier)?.showsCountsInSubtitle == true {
            task.updateTitle(task.title, subtitle: JobRunner.subtitle(for: job.progress))
        }
        task.publish(job.progress)
    }

    /// Removes a completed job's workspace (the packager calls this once its commit completed the job).
    package func removeWorkspace(of job: JobRecord) {
        try? Workspace(directory: URL(fileURLWithPath: job.workspace)).remove()
    }

    /// Removes what work under the lease named `output` committed in `job`'s workspace: the lease
    /// was lost, its commit refused, or its work failed or stopped, so none of it is the chunk's.
    package func discardLeasedOutputs(_ output: String, of job: JobRecord) throws {
        try Workspace(directory: URL(fileURLWithPath: job.workspace)).leased(output: output).discardLeasedOutputs()
    }

    private func leasedKind(of job: JobRecord) throws -> AnyJobKind {
        guard let kind = registeredKind(for: job.request.identifier) else { throw SchedulerError.unregisteredKind(job.id, job.kind) }
        return kind
    }
}
