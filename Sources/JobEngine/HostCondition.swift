/// Something about the machine that should hold all work for now, whatever the job: checked by
/// the runner at every chunk boundary (the job then ends paused, saying why) and by
/// ``JobScheduler/resume(_:strategy:)`` before it takes a job (it refuses, saying why).
public protocol HostCondition: Sendable {
    /// Why work should wait now, in words for the person with what to do; `nil` when it may go on.
    func reasonToWait() -> String?
}
