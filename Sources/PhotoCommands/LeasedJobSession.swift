import GPURender
import JobEngine
import MediaJobCLI
import PostgresJobStore
import TaskContract

/// A job submitted to a PostgreSQL store, run in the foreground by the process that submitted it:
/// the process works on it as one more worker on that job alone, claiming its chunks under the
/// same leases as `mediajob worker` (DESIGN.md §10), so that workers on any machine share them and
/// finish them if this process dies. The bar shows the job's progress as stored, whoever's
/// commits move it, and the process ends with the job's outcome, as a job run alone does.
///
/// Ctrl-C pauses the job, as it does a job run alone: this process stops its chunks in flight and
/// gives them back, and no worker claims anything more of the job; a second Ctrl-C gives them back
/// at once and ends the process. In `mediajob-photo`, a chunk that meets an input only
/// `mediajob-media` can judge pauses the job the same way, and the process hands it over there
/// (`mediajob-media resume JOB --store …`), as a job run alone is.
package struct LeasedJobSession {
    package let session: JobSession
    package let store: PostgresJobStore
    /// How long this process's claims last without renewal (`--lease`).
    package let lease: Duration
    /// How often the bar reads the job's progress from the store.
    package static let progressInterval = Duration.milliseconds(250)

    /// Works on `handle`'s job until it ends (or is stopped), and returns the exit code.
    package func run(_ handle: JobHandle, stop: SessionStop) async -> Int32 {
        let context = session.context
        let scheduler = session.scheduler
        let requiresGPU = handle.record.request.requiredResources.contains(.gpu)
        let location = try? context.storeLocation()
        let worker = LeaseWorker(scheduler: scheduler, store: store, renewals: location?.storeOnItsOwnConnection(),
                                 commits: location?.storeOnItsOwnConnection(),
                                 slots: scheduler.leasedSlots(for: handle.record), lease: lease,
                                 hasGPU: requiresGPU && GPUSelection.current().renderer != nil, job: handle.id,
                                 announcements: location?.announcementListener(), console: context.console)
        session.announce(handle, verb: "Starting")
        let reporter = session.progressReporter(for: handle)
        handle.task.expirationHandler = { worker.stopChunksInFlight() }
        // A leased chunk's stop stops only that chunk (given back, to be claimed again): one that
        // meets an input for another program stops the whole job here, to be handed over.
        session.kinds?.whenHandOverNeeded { handle.task.expire() }
        stop.attach(handle, reporter: reporter, releasing: {
            if let kept = LeaseWorker.notGivenBack(worker.giveBackAtOnce().kept) { context.console.err("Stopping: \(kept)") }
        })
        let following = Task { await follow(handle) }
        await worker.work()
        following.cancel()
        let shown = await following.value
        stop.cancel()

        let reachedStore = handle.task.isExpired ? pauseIfLive(handle) : true
        let stored = try? store.job(handle.id)
        let job = stored ?? handle.record
        let outcome = job.outcome ?? .paused
        if let stored, stored.progress != shown { scheduler.showStoredProgress(of: stored, on: handle.task) }
        handle.task.setTaskCompleted(outcome)
        reporter.finishLine()
        if reachedStore, let code = session.handedOver(job, outcome: outcome, stop: stop) { return code }
        session.report(outcome, of: handle, resumeHint: "mediajob resume \(job.id.short)\(context.stateDirectoryArgument)",
                       pausedInStore: reachedStore)
        return ExitCode.of(outcome)
    }

    /// Shows the stored progress on the job's task whenever it moved, until cancelled.
    /// - Returns: the progress shown last.
    private func follow(_ handle: JobHandle) async -> ProgressSnapshot? {
        var shown: ProgressSnapshot?
        while !Task.isCancelled {
            if let job = try? store.job(handle.id), job.progress != shown {
                session.scheduler.showStoredProgress(of: job, on: handle.task)
                shown = job.progress
            }
            try? await Task.sleep(for: Self.progressInterval)
        }
        return shown
    }

    /// Ctrl-C: the job is paused, unless it ended meanwhile; workers claim nothing more of it. A
    /// store that cannot be reached (its reconnections stopped with the chunks, ``LeaseWorker/stopChunksInFlight()``)
    /// leaves the job as it is, and the process says so.
    /// - Returns: whether the store answered (the job is paused, or had ended).
    private func pauseIfLive(_ handle: JobHandle) -> Bool {
        do {
            guard let job = try store.job(handle.id), job.state.isLive else { return true }
            try store.transition(handle.id, to: StateChange(state: .paused, clearsCancel: true),
                                 journal: JournalEntry(jobID: handle.id, event: .ended, detail: ["outcome": "paused"]))
            return true
        } catch {
            session.context.console.err("Stopping: could not pause job \(handle.id.short): \(error.personCause).")
            return false
        }
    }
}
