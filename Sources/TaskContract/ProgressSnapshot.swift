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
    /// The work the finalisation is expected to do, in the ``Stage/package`` stage's unit.
    public var finalizeWork: Double
    /// Seconds left, from the measured rate; `nil` until something was measured.
    public var etaSeconds: Double?
    /// Learned unit costs.
    public var costs: UnitCostModel
    /// Wall-clock seconds spent working on the job, over all its runs.
    public var workedSeconds: Double

    /// A snapshot of a job with nothing done yet.
    /// - Parameter finalizeWork: the work its finalisation will do (1 when the kind states none).
    public init(unitsTotal: Int, finalizeWork: Double = 1, costs: UnitCostModel) {
        self.bar = CostBar()
        self.stage = nil
        self.unitsDone = 0
        self.unitsTotal = unitsTotal
        self.finalizeWork = finalizeWork
        self.etaSeconds = nil
        self.costs = costs
        self.workedSeconds = 0
    }

    /// The fraction shown, from 0 to 1.
    public var fraction: Double { bar.fraction }

    private enum CodingKeys: String, CodingKey {
        case bar, stage, unitsDone, unitsTotal, finalizeWork, etaSeconds, costs, workedSeconds
    }

    /// Decodes a snapshot; one stored before finalisations stated their work has 1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bar = try container.decode(CostBar.self, forKey: .bar)
        stage = try container.decodeIfPresent(Stage.self, forKey: .stage)
        unitsDone = try container.decode(Int.self, forKey: .unitsDone)
        unitsTotal = try container.decode(Int.self, forKey: .unitsTotal)
        finalizeWork = try container.decodeIfPresent(Double.self, forKey: .finalizeWork) ?? 1
        etaSeconds = try container.decodeIfPresent(Double.self, forKey: .etaSeconds)
        costs = try container.decode(UnitCostModel.self, forKey: .costs)
        workedSeconds = try container.decode(Double.self, forKey: .workedSeconds)
    }
}
