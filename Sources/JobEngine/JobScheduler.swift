import Foundation
import Synchronization
import TaskContract

/// The engine's front door: register job kinds, submit requests, run and manage jobs.
///
/// Capacity is the number of jobs running at once in one state folder, across every process
/// that uses it. `.fail` requests are refused at once when it is full; `.queue` requests wait
/// in first-in, first-out order. Liveness is judged by per-job file locks the kernel releases
/// when a process dies, so a job whose process vanished shows as ``JobState/interrupted`` and
/// waits for the person to resume, restart or discard it.
public final class JobScheduler: Sendable {
    /// Where jobs are kept. The project's own modules read the journal through it; changing a
    /// job's state behind the scheduler's back would break its rules, so embedders see only the
    /// scheduler's methods.
    package let store: any JobStore
    /// How many jobs may run at once in this state folder.
    public let maxConcurrentJobs: Int
    /// How many chunks of one job this process runs at once: its own choice, from its own probe,
    /// never stored with the job (another process resuming it chooses again).
    public let chunksAtOnce: Int
    /// How often a queued job looks for capacity.
    public let queuePollInterval: Duration
    /// How often a running job looks for a cancel request from another process.
    public let cancelPollInterval: Duration

    /// What holds all work for now (for example ``ThermalGuard``); `nil` when nothing does.
    public let hostCondition: (any HostCondition)?

    /// What the workspaces of this scheduler's jobs are named by: `.<destination>.<prefix>-<job>`.
    public let workspacePrefix: String

    let locks: LockDirectory
    private let probe: any ResourceProbe
    /// The registered kinds, each under its permitted identifier; no two permitted identifiers overlap.
    private let kinds = Mutex<[(permitted: TaskIdentifier, kind: AnyJobKind)]>([])

    /// Creates a scheduler over a store.
    /// - Parameters:
    ///   - store: the job store.
    ///   - lockDirectory: a folder for lock files, on a local file system, shared by every process
    ///     using the same store.
    ///   - probe: tells which resources (the GPU) requests may require.
    ///   - maxConcurrentJobs: capacity; at least 1.
    ///   - chunksAtOnce: how many chunks of one job this process runs at once; at least 1.
    ///   - hostCondition: what holds all work for now: running jobs pause at their next chunk
    ///     boundary, and ``resume(_:strategy:)`` refuses, while it says so.
    ///   - workspacePrefix: the program's word in its jobs' workspace names,
    ///     `.<destination>.<prefix>-<job>`: letters, digits, `-` and `_`.
    /// - Throws: ``SchedulerError/invalidWorkspacePrefix(_:)``, or ``FileSystemError`` when the lock
    ///   folder cannot be made.
    public init(
        store: any JobStore, lockDirectory: URL, probe: any ResourceProbe = FixedResourceProbe(),
        maxConcurrentJobs: Int, chunksAtOnce: Int = 1, queuePollInterval: Duration = .milliseconds(100),
        cancelPollInterval: Duration = .seconds(1), hostCondition: (any HostCondition)? = nil,
        workspacePrefix: String = "job"
    ) throws {
        guard Workspace.isValidPrefix(workspacePrefix) else { throw SchedulerError.invalidWorkspacePrefix(workspacePrefix) }
        self.workspacePrefix = workspacePrefix
        self.store = store
        self.locks = try LockDirectory(directory: lockDirectory)
        self.probe = probe
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
        self.chunksAtOnce = max(1, chunksAtOnce)
        self.queuePollInterval = queuePollInterval
        self.cancelPollInterval = cancelPollInterval
        self.hostCondition = hostCondition
    }

    /// Registers the handler for a kind of job under the permitted identifier its program owns,
    /// for example `com.example.myapp.hash.*`: every task whose identifier it admits
    /// (``TaskIdentifier/matches(_:)``) is a job of this kind, whatever its kind is named.
    /// - Throws: ``SchedulerError/alreadyRegistered(_:)`` when a kind of that name has a handler
    ///   already; ``SchedulerError/overlappingPermission(_:registered:kind:)`` when an identifier
    ///   could match both `permitted` and a registered one, so one of them would never be reached.
    public func register<Kind: JobKind>(_ kind: Kind, permitted: TaskIdentifier) throws {
        try kinds.withLock { kinds in
            guard !kinds.contains(where: { $0.kind.name == kind.name }) else {
                throw SchedulerError.alreadyRegistered(kind.name)
            }
            if let other = kinds.first(where: { $0.permitted.overlaps(permitted) }) {
                throw SchedulerError.overlappingPermission(permitted, registered: other.permitted, kind: other.kind.name)
            }
            kinds.append((permitted, AnyJobKind(kind)))
        }
    }

    /// Submits work: checks the request, looks for the same work unfinished
    /// (``Submission/existing(_:)``), and otherwise plans the job and takes it into this process
    /// (``Submission/created(_:)``).
    ///
    /// The same work is found before planning, by the kind's ``JobKind/workIdentity(of:)``; when
    /// planning then fails (an input has moved or changed since), an unfinished job with exactly
    /// these settings is the same work too, and is returned instead of a new rejected job.
    /// A `.fail` request that finds no free capacity is refused at once; a `.queue` request is
    /// queued and waits in ``run(_:)``.
    /// - Parameter detached: store the job for worker processes (``LeasingJobStore``) instead of
    ///   this process: it is stored with no owning process, so it is never taken for
    ///   ``JobState/interrupted`` when this process ends, and takes no capacity here.
    /// - Parameter submitterWorks: with `detached`, whether this process works on the job too. If
    ///   not, a `.fail` request is refused when no live worker of the store can run the job.
    /// - Throws: ``SchedulerError/rejected(_:_:)`` for an unregistered identifier, settings of
    ///   another type than the kind's, a required resource that is not supported, invalid input,
    ///   an existing destination or no capacity; the rejection is recorded.
    public func submit<Spec: Codable & Sendable>(_ request: TaskRequest, spec: Spec, detached: Bool = false,
                                                 submitterWorks: Bool = false) throws -> Submission {
        let id = try newJobID(for: request.identifier)
        let specData = try AnyJobKind.encode(spec)
        guard let kind = registeredKind(for: request.identifier) else {
            throw try reject(id, request, specData, .unregisteredIdentifier(request.identifier))
        }
        guard kind.accepts(Spec.self) else {
            throw try reject(id, request, specData,
                             .wrongSettingsType(kind: kind.name, expected: kind.specTypeName, given: "\(Spec.self)"),
                             kind: kind)
        }
        if let reason = probe.unsupportedReason(for: request.requiredResources) {
            throw try reject(id, request, specData, .unsupportedResource(reason), kind: kind)
        }
        let workKey: String
        do {
            workKey = try kind.workKey(specData)
        } catch {
            throw try reject(id, request, specData, .invalidInput(error.personMessage), kind: kind)
        }
        if let existing = try store.unfinishedJob(workKey: workKey) {
            return .existing(try refreshed(existing))
        }
        let plan: JobPlan
        do {
            plan = try FaultPoints.step(.plan, operation: "plan", path: request.identifier.rawValue) {
                try kind.plan(specData)
            }
        } catch {
            if let existing = try unfinishedJob(kind: kind, spec: specData) { return .existing(try refreshed(existing)) }
            throw try reject(id, request, specData, .invalidInput(error.personMessage), kind: kind)
        }
        if !plan.overwrite, DurableFiles.exists(plan.destination) {
            throw try reject(id, request, specData, .destinationExists(path: plan.destination.path), kind: kind)
        }
        let lock = try JobLock.acquire(locks.url(for: id))
        var record = JobRecord(
            id: id, kind: kind.name, request: request, spec: specData, workKey: workKey, destination: plan.destination.path,
            workspace: Workspace.beside(plan.destination, for: id, prefix: workspacePrefix).directory.path,
            overwrite: plan.overwrite,
            state: .queued,
            progress: ProgressSnapshot(unitsTotal: plan.chunks.count, finalizeWork: plan.finalizeWork,
                                       costs: UnitCostModel(seeds: kind.defaultCosts)))
        record.ownerPID = detached ? nil : getpid()
        if request.strategy == .fail, detached, !submitterWorks, let leasing = store as? any LeasingJobStore {
            let requiresGPU = request.requiredResources.contains(.gpu)
            guard try leasing.liveWorkers().contains(where: { $0.hasGPU || !requiresGPU }) else {
                throw try reject(id, request, specData, .noLiveWorker(requiresGPU: requiresGPU), kind: kind)
            }
        }
        if request.strategy == .fail {
            // Check and take the slot under one admission lock, so two `.fail` requests never share it.
            record = try withAdmission {
                guard try hasCapacity(for: nil) else {
                    throw try reject(id, request, specData, .noCapacity(slots: maxConcurrentJobs, jobStays: nil),
                                     kind: kind)
                }
                record.state = .running
                let inserted = try store.insert(record, chunks: plan.chunks)
                try store.append(startedEntry(id, kind: kind))
                return inserted
            }
        } else {
            record = try store.insert(record, chunks: plan.chunks)
        }
        return .created(JobHandle(record: record, lock: lock))
    }

    /// Waits for capacity (in queue order), runs the job, records and returns its outcome, and
    /// completes the handle's task with it.
    public func run(_ handle: JobHandle) async -> TaskOutcome {
        let task = handle.task
        let store = self.store, id = handle.id
        task.observe { event in
            if case .expired = event { try? store.append(JournalEntry(jobID: id, event: .expired)) }
        }
        let outcome: TaskOutcome
        do {
            if try await waitForCapacity(handle), let kind = registeredKind(for: handle.record.request.identifier) {
                let record = try store.job(handle.id) ?? handle.record
                outcome = await JobRunner(store: store, kind: kind, record: record, task: task,
                                          chunksAtOnce: chunksAtOnce(for: kind), cancelPollInterval: cancelPollInterval,
                                          hostCondition: hostCondition).run()
            } else if registeredKind(for: handle.record.request.identifier) == nil {
                try store.transition(handle.id, to: StateChange(state: .rejected, rejection: .unregisteredIdentifier,
                                                                message: "no handler is registered for this kind"),
                                     journal: JournalEntry(jobID: id, event: .ended, detail: ["outcome": "rejected"]))
                outcome = .rejected(.unregisteredIdentifier)
            } else {
                try store.transition(handle.id, to: StateChange(state: .paused, clearsCancel: true),
                                     journal: JournalEntry(jobID: id, event: .ended, detail: ["outcome": "paused"]))
                outcome = .paused
            }
        } catch {
            try? store.transition(handle.id, to: StateChange(state: .failed, failure: error.failureCategory,
                                                             message: error.personMessage),
                                  journal: JournalEntry(jobID: id, event: .ended, detail: ["outcome": "failed"]))
            outcome = .failed(error.failureCategory)
        }
        handle.lock.release()
        task.setTaskCompleted(outcome)
        return outcome
    }

    /// Marks a job this process owns as paused at once, for a hard stop; the last checkpoint
    /// stands and the work in hand is redone on resume.
    public func pauseNow(_ handle: JobHandle) throws {
        try store.transition(handle.id, to: StateChange(state: .paused, clearsCancel: true),
                             journal: JournalEntry(jobID: handle.id, event: .ended,
                                                   detail: ["outcome": "paused", "stop": "immediate"]))
    }

    // MARK: - Admission

    /// Waits until the job may run and marks it running.
    /// - Returns: `false` when the job was asked to stop while it waited.
    private func waitForCapacity(_ handle: JobHandle) async throws -> Bool {
        if handle.record.state == .running { return !handle.task.isExpired }
        let kind = registeredKind(for: handle.record.request.identifier)
        while true {
            if try handle.task.isExpired || store.isCancelRequested(handle.id) { return false }
            let admitted = try withAdmission { () -> Bool in
                guard try hasCapacity(for: handle.record) else { return false }
                try store.transition(handle.id, to: StateChange(state: .running, ownerPID: getpid()),
                                     journal: startedEntry(handle.id, kind: kind))
                return true
            }
            if admitted { return true }
            try await Task.sleep(for: queuePollInterval)
        }
    }

    /// Whether a slot is free for `job` (or, for `nil`, for a job that would not queue).
    /// Call under the admission lock. Marks live jobs whose owner died as interrupted. Jobs left to
    /// workers (no owning process) take no slot here.
    func hasCapacity(for job: JobRecord?) throws -> Bool {
        var running = 0, ahead = 0
        for other in try store.jobs() where other.state.isLive && other.id != job?.id && !other.isLeftToWorkers {
            guard try locks.isOwned(other.id) else {
                try markInterrupted(other)
                continue
            }
            if other.state == .running { running += 1 }
            if other.state == .queued, other.queueSequence < (job?.queueSequence ?? .max) { ahead += 1 }
        }
        return running < maxConcurrentJobs && ahead == 0
    }

    func withAdmission<T>(_ body: () throws -> T) throws -> T {
        let lock = try JobLock.acquire(locks.admission)
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// The identifier's UUID suffix, so that job and task share a name; a fresh one if that is
    /// not a UUID or is taken.
    private func newJobID(for identifier: TaskIdentifier) throws -> JobID {
        let suffix = String(identifier.rawValue.split(separator: ".").last ?? "").lowercased()
        guard UUID(uuidString: suffix) != nil, try store.job(JobID(rawValue: suffix)) == nil else { return .make() }
        return JobID(rawValue: suffix)
    }

    /// An unfinished job of `kind` submitted with exactly `spec`.
    private func unfinishedJob(kind: AnyJobKind, spec: Data) throws -> JobRecord? {
        try store.jobs().first { !$0.state.isFinished && $0.kind == kind.name && $0.spec == spec }
    }

    /// How many chunks of a job of `kind` this process runs at once: ``chunksAtOnce``, or fewer
    /// when the kind allows fewer.
    func chunksAtOnce(for kind: AnyJobKind?) -> Int {
        max(1, min(chunksAtOnce, kind?.maxChunksAtOnce ?? .max))
    }

    /// The journal line of a job starting in this process, with how many chunks it runs at once.
    func startedEntry(_ id: JobID, kind: AnyJobKind?) -> JournalEntry {
        JournalEntry(jobID: id, event: .started,
                     detail: ["pid": String(getpid()), "chunks_at_once": String(chunksAtOnce(for: kind))])
    }

    func markInterrupted(_ job: JobRecord) throws {
        try store.transition(job.id, to: StateChange(state: .interrupted),
                             journal: JournalEntry(jobID: job.id, event: .interrupted,
                                                   detail: ["was": job.state.rawValue]))
    }

    /// The kind registered under the permitted identifier that admits `identifier`.
    func registeredKind(for identifier: TaskIdentifier) -> AnyJobKind? {
        kinds.withLock { kinds in kinds.first { $0.permitted.matches(identifier) }?.kind }
    }

    private func reject(_ id: JobID, _ request: TaskRequest, _ spec: Data, _ rejection: Rejection,
                        kind: AnyJobKind? = nil) throws -> SchedulerError {
        var record = JobRecord(id: id, kind: kind?.name ?? "", request: request, spec: spec, workKey: "rejected \(id)",
                               destination: "",
                               workspace: "", overwrite: false, state: .rejected,
                               progress: ProgressSnapshot(unitsTotal: 0, costs: UnitCostModel()))
        record.rejection = rejection.reason
        record.message = rejection.message
        _ = try store.insert(record, chunks: [])
        try store.append(JournalEntry(jobID: id, event: .ended,
                                      detail: ["outcome": "rejected", "reason": rejection.reason.rawValue]))
        return .rejected(id, rejection)
    }
}
