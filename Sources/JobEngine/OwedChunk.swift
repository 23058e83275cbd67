import TaskContract

/// A chunk not yet done, as the engine keeps it while its job runs: its index (its place in run
/// order), its stage and its work. The plan itself stays in the store until the chunk runs, so a
/// job of 100,000 chunks holds these few bytes each instead of every decoded plan.
struct OwedChunk: Sendable, Equatable {
    var index: Int
    var stage: Stage
    var work: Double

    init(index: Int, stage: Stage, work: Double) {
        self.index = index
        self.stage = stage
        self.work = work
    }

    /// What the engine keeps of a stored chunk.
    init(_ record: ChunkRecord) {
        self.init(index: record.index, stage: record.plan.stage, work: record.plan.work)
    }
}
