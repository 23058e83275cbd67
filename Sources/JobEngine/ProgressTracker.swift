import TaskContract

/// Turns finished chunks into the next ``ProgressSnapshot``: learns seconds per unit of work,
/// moves the cost-weighted bar, and estimates the time left.
///
/// What is owed is each chunk not yet done, costed by its work, and the finalisation, costed by
/// ``ProgressSnapshot/finalizeWork`` in the ``Stage/package`` stage. A stage this job has run
/// chunks of is costed at its learned rate; a stage it has not run yet at its starting rate (the
/// kind's default or this machine's history) scaled by how this run's chunks compared with their
/// starting rates, so a busy or slow machine makes the stages still to come slower too.
///
/// The time left lays the owed chunks out in run order on the run's chunks at once, each taking
/// the next chunk as it frees (as the runner does), then adds the finalisation, which runs alone.
///
/// A chunk's cost is linear in its work, so the owed work is kept summed by stage as chunks land:
/// pricing what is owed after a chunk costs the same in a job of ten chunks as in one of a
/// hundred thousand. So does the time left: only the last ``laidOutChunks`` chunks in run order
/// are laid out one by one; those before them, which land first, are spread evenly over the
/// workers (laid out one by one, many chunks leave the workers within one chunk of each other).
struct ProgressTracker {
    /// How many of a job's last chunks in run order the time left lays out one by one.
    static let laidOutChunks = 256

    private(set) var snapshot: ProgressSnapshot
    /// The chunks not yet done: their work by stage, which are owed, and the last ones in run order.
    private var owed: OwedChunks
    private let workedBefore: Double
    private let chunksAtOnce: Int
    /// The unit costs this run started from.
    private let startingCosts: UnitCostModel
    /// Over this run's finished chunks: the seconds they took, and what the starting costs said.
    private var measured = 0.0, predicted = 0.0

    /// Starts from the stored snapshot; `owed` is what is not yet done.
    /// - Parameter chunksAtOnce: how many chunks this run does at once.
    init(snapshot: ProgressSnapshot, owed: OwedChunks, chunksAtOnce: Int = 1) {
        self.snapshot = snapshot
        self.owed = owed
        self.workedBefore = snapshot.workedSeconds
        self.chunksAtOnce = max(1, chunksAtOnce)
        self.startingCosts = snapshot.costs
    }

    /// Starts from the stored snapshot; `owed`, the chunks not yet done, are run in index order.
    init(snapshot: ProgressSnapshot, owed: [OwedChunk], chunksAtOnce: Int = 1) {
        self.init(snapshot: snapshot, owed: OwedChunks(owed), chunksAtOnce: chunksAtOnce)
    }

    /// Starts from the stored snapshot; the chunks of `chunks` not yet done are what is owed.
    init(snapshot: ProgressSnapshot, chunks: [ChunkRecord], chunksAtOnce: Int = 1) {
        self.init(snapshot: snapshot, owed: chunks.filter { !$0.isDone }.map(OwedChunk.init), chunksAtOnce: chunksAtOnce)
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

    /// How much slower (above 1) or faster this run's chunks were than their starting costs said.
    var speedFactor: Double {
        predicted > 0 && measured > 0 ? measured / predicted : 1
    }

    /// The expected seconds of `work` units in `stage` (see the type's discussion).
    func expectedCost(of work: Double, in stage: Stage) -> Double {
        snapshot.costs.weights[stage] != nil
            ? snapshot.costs.cost(of: work, in: stage)
            : startingCosts.cost(of: work, in: stage) * speedFactor
    }

    /// The estimated seconds of everything still owed, finalisation included, as one worker
    /// would take them (the weight of what is left on the bar).
    var remainingCost: Double {
        owed.work.stages.reduce(finalizeCost) { $0 + expectedCost(of: $1.value.work, in: $1.key) }
    }

    /// The finalisation's estimated seconds: its work at the ``Stage/package`` stage's expected
    /// rate. A finalisation nobody costed (the kind gives no default, this machine measured none)
    /// is expected to be quick, so the bar reaches the cap with the last chunk instead of stopping
    /// short by a guessed second; what it really took is learned for the kind's next job.
    private var finalizeCost: Double {
        guard snapshot.costs.estimates[.package] != nil else { return 0 }
        return expectedCost(of: snapshot.finalizeWork, in: .package)
    }

    /// The estimated seconds until the job is complete: the owed chunks in run order on
    /// ``chunksAtOnce`` workers, then the finalisation.
    var secondsLeft: Double { secondsLeft(excluding: []) }

    /// ``secondsLeft`` without the owed chunks `landed`, whose work is already out of the sums.
    /// One worker takes the owed chunks one after another: that is ``remainingCost``, kept by
    /// stage. Several share the chunks before the last ``laidOutChunks`` evenly (their cost is the
    /// sums less the last ones'), then take the last ones one by one.
    private func secondsLeft(excluding landed: Set<Int>) -> Double {
        guard chunksAtOnce > 1 else { return remainingCost }
        var headCost = 0.0, count = 0
        for (stage, sum) in owed.work.stages {
            count += sum.chunks
            let tail = owed.tailWork.stages[stage] ?? OwedWork.Sum(work: 0, chunks: 0)
            if sum.chunks > tail.chunks { headCost += expectedCost(of: max(0, sum.work - tail.work), in: stage) }
        }
        let workerCount = min(chunksAtOnce, max(1, count))
        var workers = [Double](repeating: headCost / Double(workerCount), count: workerCount)
        for chunk in owed.tail where !landed.contains(chunk.index) && owed.contains(chunk.index) {
            let free = workers.indices.min { workers[$0] < workers[$1] }!
            workers[free] += expectedCost(of: chunk.work, in: chunk.stage)
        }
        return workers.max()! + finalizeCost
    }

    /// The snapshots the chunks in `landed` (each with the seconds it took), accounted for one
    /// after another `elapsed` seconds into this run, would give: the one after each, without
    /// accounting for any. The runner stores them first (the chunks that landed together, in one
    /// checkpoint) and calls ``chunkDone(_:cost:elapsed:)`` for each once that is durable. A chunk
    /// not owed (or listed before) leaves the snapshot as it was.
    ///
    /// The trial copy shares which chunks are owed, which ``account(_:cost:elapsed:landed:)``
    /// leaves alone: a copy that removed one would copy them all, which made every checkpoint as
    /// slow as the job is long.
    func snapshots(after landed: [(chunk: OwedChunk, cost: Double)], elapsed: Double) -> [ProgressSnapshot] {
        var trial = self
        var accounted: Set<Int> = []
        return landed.map { chunk, cost in
            if owed.contains(chunk.index), accounted.insert(chunk.index).inserted {
                trial.account(chunk, cost: cost, elapsed: elapsed, landed: accounted)
            }
            return trial.snapshot
        }
    }

    /// Accounts for `chunk`, which took `cost` seconds, `elapsed` seconds into this run; nothing
    /// for a chunk not owed (or already accounted for).
    mutating func chunkDone(_ chunk: OwedChunk, cost: Double, elapsed: Double) {
        guard owed.contains(chunk.index) else { return }
        account(chunk, cost: cost, elapsed: elapsed, landed: [chunk.index])
        owed.forget(chunk.index)
        // Nothing is owed any more: the finalisation that comes next needs none of the room.
        if owed.isEmpty { owed = OwedChunks() }
    }

    /// Accounts for the owed `chunk` in everything but which chunks are owed; `landed` are the
    /// chunks accounted for so far (it among them), whose work is out of the sums.
    private mutating func account(_ chunk: OwedChunk, cost: Double, elapsed: Double, landed: Set<Int>) {
        owed.account(chunk)
        predicted += startingCosts.cost(of: chunk.work, in: chunk.stage)
        measured += cost
        snapshot.costs.observe(cost, work: chunk.work, for: chunk.stage)
        snapshot.bar.advance(done: cost, remaining: remainingCost)
        snapshot.stage = chunk.stage
        snapshot.unitsDone += 1
        snapshot.workedSeconds = workedBefore + elapsed
        snapshot.etaSeconds = secondsLeft(excluding: landed)
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
