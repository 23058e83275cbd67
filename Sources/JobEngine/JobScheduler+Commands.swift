import Foundation
import Glibc
import TaskContract

/// Managing jobs that exist: finding, inspecting, resuming, restarting, discarding, cancelling.
extension JobScheduler {
    /// All jobs, oldest first, with vanished owners shown as ``JobState/interrupted``.
    public func jobs() throws -> [JobRecord] {
        try store.jobs().map(refreshed)
    }

    /// The job whose identity starts with `text` (at least four characters), or whose task
    /// identifier is `text`.
    /// - Throws: ``SchedulerError/noSuchJob(_:)`` or ``SchedulerError/ambiguousJob(_:_:)``.
    public func job(matching text: String) throws -> JobRecord {
        let needle = text.lowercased()
        // A whole identity is read alone: reading every job made `status` as slow as the store is full.
        if let exact = try store.job(JobID(rawValue: needle)) { return try refreshed(exact) }
        let all = try store.jobs()
        if let exact = all.first(where: { $0.id.rawValue == needle || $0.request.identifier.rawValue == text }) {
            return try refreshed(exact)
        }
        let matches = needle.count >= 4 ? all.filter { $0.id.rawValue.hasPrefix(needle) } : []
        switch matches.count {
        case 0: throw SchedulerError.noSuchJob(text)
        case 1: return try refreshed(matches[0])
        default: throw SchedulerError.ambiguousJob(text, matches.map(\.id))
        }
    }

    /// Takes a paused, interrupted or failed job into this process to continue it from its last
    /// checkpoint. Run it with ``run(_:)``.
    /// Under `.fail`, refuses at once (leaving the job as it was) when no capacity is free.
    /// - Throws: ``SchedulerError/hostHolding(_:_:)`` while the ``hostCondition`` holds work (the
    ///   machine is too hot), leaving the job as it was.
    public func resume(_ id: JobID, strategy: SubmissionStrategy = .queue) throws -> JobHandle {
        if let reason = hostCondition?.reasonToWait() { throw SchedulerError.hostHolding(id, reason) }
        let (record, lock) = try take(id, for: .resume)
        guard registeredKind(for: record.request.identifier) != nil else {
            throw SchedulerError.rejected(id, .unregisteredIdentifier(record.request.identifier))
        }
        return try enqueue(record, strategy: strategy, lock: lock, journal: nil)
    }

    /// Throws a job's partial work away and takes it into this process to start again from nothing.
    /// Under `.fail`, refuses at once when no capacity is free.
    public func restart(_ id: JobID, strategy: SubmissionStrategy = .queue) throws -> JobHandle {
        let (record, lock) = try take(id, for: .restart)
        try Workspace(directory: URL(fileURLWithPath: record.workspace)).remove()
        try store.resetChunks(of: id, progress: ProgressSnapshot(unitsTotal: record.progress.unitsTotal,
                                                                 finalizeWork: record.progress.finalizeWork,
                                                                 costs: UnitCostModel()))
        return try enqueue(record, strategy: strategy, lock: lock,
                           journal: JournalEntry(jobID: id, event: .submitted, detail: ["restart": "true"]))
    }

    /// Removes a job's partial work and marks it discarded. What was already published stays.
    public func discard(_ id: JobID) throws {
        let (record, lock) = try take(id, for: .discard)
        if !record.workspace.isEmpty {
            try Workspace(directory: URL(fileURLWithPath: record.workspace)).remove()
        }
        try store.transition(id, to: StateChange(state: .discarded, clearsCancel: true),
                             journal: JournalEntry(jobID: id, event: .ended, detail: ["outcome": "discarded"]))
        withExtendedLifetime(lock) { locks.removeLock(for: id) }
    }

    /// Asks the process running or queueing a job to stop it at the next chunk boundary; the job
    /// then ends paused.
    /// - Throws: ``SchedulerError/wrongState(_:_:_:)`` when no live process holds the job.
    public func cancel(_ id: JobID) throws {
        let record = try refreshed(try store.job(id) ?? { throw SchedulerError.noSuchJob(id.rawValue) }())
        guard JobOperation.cancel.allows(record.state) else { throw SchedulerError.wrongState(id, record.state, .cancel) }
        try store.requestCancel(id)
    }

    /// The estimated seconds of work left in a job, from learned unit costs, when this process
    /// runs it (``chunksAtOnce`` at a time).
    public func estimatedSeconds(for id: JobID) throws -> Double {
        guard let job = try store.job(id), let kind = registeredKind(for: job.request.identifier) else {
            throw SchedulerError.noSuchJob(id.rawValue)
        }
        let tracker = ProgressTracker(snapshot: try ProgressTracker.seeded(job, kind: kind, store: store),
                                      owed: try store.owedChunks(of: id), chunksAtOnce: chunksAtOnce(for: kind))
        return tracker.secondsLeft
    }

    /// Deletes the records of finished jobs (completed, discarded, rejected) last changed before
    /// `cutoff`, with any workspace they left; never a job that can still resume or is running.
    /// - Returns: the jobs removed.
    public func prune(changedBefore cutoff: Date) throws -> [JobRecord] {
        let finished = try store.jobs().filter { $0.state.isFinished && $0.updatedAt < cutoff }
        for job in finished {
            if !job.workspace.isEmpty { try Workspace(directory: URL(fileURLWithPath: job.workspace)).remove() }
            try store.remove(job.id)
            locks.removeLock(for: job.id)
        }
        return finished
    }

    /// Removes the workspaces and lock files of completed, discarded and rejected jobs that a
    /// crash left behind. Workspaces of resumable jobs are kept.
    public func cleanFinishedWorkspaces() throws {
        removeWorkspaces(try store.finishedWorkspaces())
    }

    /// Removes the workspaces and lock files of the finished jobs among `jobs`, read from the store
    /// a moment ago: a listing reads every job once for both, since decoding the records is most
    /// of what it costs.
    public func cleanFinishedWorkspaces(of jobs: [JobRecord]) {
        removeWorkspaces(jobs.filter(\.state.isFinished).map { ($0.id, $0.workspace) })
    }

    /// Removes the workspaces and lock files of finished jobs.
    private func removeWorkspaces(_ finished: [(id: JobID, workspace: String)]) {
        for job in finished {
            if !job.workspace.isEmpty {
                try? Workspace(directory: URL(fileURLWithPath: job.workspace)).remove()
            }
            locks.removeLock(for: job.id)
        }
    }

    /// The record, with a queued or running job whose owner is gone marked interrupted (a job
    /// left to workers has none, and stays as it is).
    func refreshed(_ record: JobRecord) throws -> JobRecord {
        guard record.state.isLive, !record.isLeftToWorkers, try !locks.isOwned(record.id) else { return record }
        return try withAdmission {
            guard let current = try store.job(record.id) else { return record }
            guard current.state.isLive, !current.isLeftToWorkers, try !locks.isOwned(current.id) else { return current }
            try markInterrupted(current)
            return try store.job(record.id) ?? current
        }
    }

    /// Puts a job this process holds back in line (`.queue`), or straight into a free slot (`.fail`).
    /// - Parameter prepare: changes the job first, once it is sure to be taken (under `.fail`, once
    ///   a slot is free, so that a refusal leaves the job as it was).
    func enqueue(_ record: JobRecord, strategy: SubmissionStrategy, lock: JobLock,
                 journal: JournalEntry?, preparing prepare: () throws -> Void = {}) throws -> JobHandle {
        let id = record.id
        if strategy == .fail {
            try withAdmission {
                guard try hasCapacity(for: nil) else {
                    throw SchedulerError.rejected(id, .noCapacity(slots: maxConcurrentJobs, jobStays: record.state))
                }
                try prepare()
                if let journal { try store.append(journal) }
                try store.transition(id, to: StateChange(state: .running, ownerPID: getpid(), clearsCancel: true),
                                     journal: startedEntry(id, kind: registeredKind(for: record.request.identifier)))
            }
        } else {
            try prepare()
            try store.transition(id, to: StateChange(state: .queued, ownerPID: getpid(), clearsCancel: true), journal: journal)
        }
        return JobHandle(record: try store.job(id) ?? record, lock: lock)
    }

    /// Takes a job's lock for an operation that changes it.
    func take(_ id: JobID, for operation: JobOperation) throws -> (JobRecord, JobLock) {
        guard try store.job(id) != nil else { throw SchedulerError.noSuchJob(id.rawValue) }
        guard let lock = try JobLock.tryAcquire(locks.url(for: id)) else {
            // A stopped job held elsewhere is being resumed, restarted or discarded; its stored
            // owner is the process that last ran it, long gone, so it is not named.
            let holder = try store.job(id)
            throw SchedulerError.ownedByAnotherProcess(id, pid: holder?.state.isLive == true ? holder?.ownerPID : nil)
        }
        guard var record = try store.job(id) else { throw SchedulerError.noSuchJob(id.rawValue) }
        if record.state.isLive, !record.isLeftToWorkers {
            // Its owner is gone: we hold the lock now.
            try markInterrupted(record)
            record.state = .interrupted
        }
        guard operation.allows(record.state) else { throw SchedulerError.wrongState(id, record.state, operation) }
        return (record, lock)
    }
}
