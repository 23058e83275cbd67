/// A job's progress as committed: what the bar shows, how far the units are, and what the cost
/// model has learned. Stored with every checkpoint, so a resumed job starts where it stopped.
public struct ProgressSnapshot: Sendable, Codable, Equatable {
    /// The cost-weighted bar.
    public var bar: CostBar
    /// The stage of the most recently finished unit, if any.
    public var stage: Stage?
    /// Units whose work is durable.
    public var unitsDone: Int
    /// Units planned in all.
    public var unitsTotal: Int
    /// Seconds left, from the measured rate; `nil` until something was measured.
    public var etaSeconds: Double?
    /// Learned unit costs.
    public var costs: UnitCostModel
    /// Wall-clock seconds spent working on the job, over all its runs.
    public var workedSeconds: Double

    /// A snapshot of a job with nothing done yet.
    public init(unitsTotal: Int, costs: UnitCostModel) {
        self.bar = CostBar()
        self.stage = nil
        self.unitsDone = 0
        self.unitsTotal = unitsTotal
        self.etaSeconds = nil
        self.costs = costs
        self.workedSeconds = 0
    }

    /// The fraction shown, from 0 to 1.
    public var fraction: Double { bar.fraction }
}
