import TaskContract

/// A job this process owns: its record as submitted or resumed, and its task.
///
/// The handle holds the job's lock from submission (or resume) until ``JobScheduler/run(_:)``
/// returns, so no other process can run, resume or discard the job meanwhile.
public final class JobHandle: Sendable {
    /// The job as it was when this process took it.
    public let record: JobRecord
    /// The task: words, durable progress, stop signal and completion.
    public let task: ContinuedTask
    let lock: JobLock

    init(record: JobRecord, lock: JobLock) {
        self.record = record
        self.task = ContinuedTask(request: record.request, progress: record.progress)
        self.lock = lock
    }

    /// The job's identity.
    public var id: JobID { record.id }
}

/// What a submission gave.
public enum Submission: Sendable {
    /// A new job, owned by this process and ready for ``JobScheduler/run(_:)``.
    case created(JobHandle)
    /// The same work is already a job that has not finished; nothing new was started.
    case existing(JobRecord)
}
