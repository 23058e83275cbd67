/// A worker as a ``LeasingJobStore`` keeps it while it lives (DESIGN.md §10): for `status` and for
/// refusing a `.fail` submission that no live worker can run, not for the correctness of leases.
public struct WorkerRecord: Sendable, Equatable {
    /// Who it is in leases and the journal: `host:pid`.
    public var name: String
    /// The machine's host name.
    public var host: String
    /// Its process on that machine.
    public var pid: Int32
    /// Whether it selected a GPU that passed its probe (it claims chunks of jobs that require one).
    public var hasGPU: Bool
    /// How many chunks it runs at once.
    public var slots: Int
    /// Its lease length: it counts as live while its last heartbeat is less than this old, by the
    /// store's clock.
    public var lease: Duration

    public init(name: String, host: String, pid: Int32, hasGPU: Bool, slots: Int, lease: Duration) {
        self.name = name
        self.host = host
        self.pid = pid
        self.hasGPU = hasGPU
        self.slots = slots
        self.lease = lease
    }
}
