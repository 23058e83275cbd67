import TaskContract

/// Turns finished chunks into the next ``ProgressSnapshot``: learns unit costs, moves the
/// cost-weighted bar, and estimates the time left from the measured rate.
///
/// Finalisation counts as one more unit of the ``Stage/package`` stage in what is owed.
struct ProgressTracker {
    private(set) var snapshot: ProgressSnapshot
    private var owed: [Int: Stage]
    private let workedBefore: Double
    private var measuredThisRun = 0.0

    /// Starts from the stored snapshot; the chunks not yet done are what is owed.
    init(snapshot: ProgressSnapshot, chunks: [ChunkRecord]) {
        self.snapshot = snapshot
        self.owed = Dictionary(uniqueKeysWithValues: chunks.filter { !$0.isDone }.map { ($0.index, $0.plan.stage) })
        self.workedBefore = snapshot.workedSeconds
    }

    /// A job's stored progress, with unit costs seeded from the kind's defaults and this machine's
    /// history when nothing was learned for the job yet.
    static func seeded(_ job: JobRecord, kind: AnyJobKind, store: any JobStore) throws -> ProgressSnapshot {
        var snapshot = job.progress
        if snapshot.unitsDone == 0 {
            let seeds = kind.defaultCosts.merging(try store.costHistory(kind: job.kind)) { _, learned in learned }
            snapshot.costs = UnitCostModel(seeds: seeds, fallback: snapshot.costs.fallback)
        }
        return snapshot
    }

    /// The estimated cost of everything still owed, finalisation included.
    var remainingCost: Double {
        owed.values.reduce(snapshot.costs.estimate(for: .package)) { $0 + snapshot.costs.estimate(for: $1) }
    }

    /// Accounts for chunk `index` of `stage`, which took `cost` seconds, `elapsed` seconds into this run.
    mutating func chunkDone(_ index: Int, stage: Stage, cost: Double, elapsed: Double) {
        owed[index] = nil
        snapshot.costs.observe(cost, for: stage)
        measuredThisRun += cost
        let remaining = remainingCost
        snapshot.bar.advance(done: cost, remaining: remaining)
        snapshot.stage = stage
        snapshot.unitsDone += 1
        snapshot.workedSeconds = workedBefore + elapsed
        // Parallel chunks finish faster than their summed costs: scale by the measured rate.
        snapshot.etaSeconds = measuredThisRun > 0 ? remaining * elapsed / measuredThisRun : nil
    }

    /// Accounts for a finished job: finalisation took `cost` seconds.
    mutating func finished(finalizeCost: Double, elapsed: Double) {
        snapshot.costs.observe(finalizeCost, for: .package)
        snapshot.bar.complete()
        snapshot.stage = .package
        snapshot.unitsDone = snapshot.unitsTotal
        snapshot.workedSeconds = workedBefore + elapsed
        snapshot.etaSeconds = 0
    }

    /// Records time spent without finishing anything (a stop or a failure).
    mutating func stopped(elapsed: Double) {
        snapshot.workedSeconds = workedBefore + elapsed
        snapshot.etaSeconds = nil
    }
}
