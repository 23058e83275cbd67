import TaskContract

/// Turns finished chunks into the next ``ProgressSnapshot``: learns seconds per unit of work,
/// moves the cost-weighted bar, and estimates the time left from the measured rate.
///
/// What is owed is each chunk not yet done, costed by its work, and the finalisation, costed by
/// ``ProgressSnapshot/finalizeWork`` in the ``Stage/package`` stage.
struct ProgressTracker {
    private(set) var snapshot: ProgressSnapshot
    private var owed: [Int: PlannedChunk]
    private let workedBefore: Double
    private var measuredThisRun = 0.0

    /// Starts from the stored snapshot; the chunks not yet done are what is owed.
    init(snapshot: ProgressSnapshot, chunks: [ChunkRecord]) {
        self.snapshot = snapshot
        self.owed = Dictionary(uniqueKeysWithValues: chunks.filter { !$0.isDone }.map { ($0.index, $0.plan) })
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

    /// The estimated seconds of everything still owed, finalisation included.
    var remainingCost: Double {
        owed.values.reduce(finalizeCost) { $0 + snapshot.costs.cost(of: $1.work, in: $1.stage) }
    }

    /// The finalisation's estimated seconds: its work at the ``Stage/package`` stage's rate. A
    /// finalisation nobody costed (the kind gives no default, this machine measured none) is
    /// expected to be quick, so the bar reaches the cap with the last chunk instead of stopping
    /// short by a guessed second; what it really took is learned for the kind's next job.
    private var finalizeCost: Double {
        guard snapshot.costs.estimates[.package] != nil else { return 0 }
        return snapshot.costs.cost(of: snapshot.finalizeWork, in: .package)
    }

    /// Accounts for chunk `index`, which took `cost` seconds, `elapsed` seconds into this run.
    mutating func chunkDone(_ index: Int, cost: Double, elapsed: Double) {
        guard let chunk = owed.removeValue(forKey: index) else { return }
        snapshot.costs.observe(cost, work: chunk.work, for: chunk.stage)
        measuredThisRun += cost
        let remaining = remainingCost
        snapshot.bar.advance(done: cost, remaining: remaining)
        snapshot.stage = chunk.stage
        snapshot.unitsDone += 1
        snapshot.workedSeconds = workedBefore + elapsed
        // Parallel chunks finish faster than their summed costs: scale by the measured rate.
        snapshot.etaSeconds = measuredThisRun > 0 ? remaining * elapsed / measuredThisRun : nil
    }

    /// Accounts for a finished job: finalisation took `cost` seconds.
    mutating func finished(finalizeCost: Double, elapsed: Double) {
        snapshot.costs.observe(finalizeCost, work: snapshot.finalizeWork, for: .package)
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
