import TaskContract

/// The order in which workers claim a job's chunks: the longest expected first (LPT, "longest
/// processing time first"), ties in index order.
///
/// Claimed in index order, chunks of different lengths leave the long ones that come last to start
/// late, while the other workers have nothing left to take: the job waits for its tail. Taking the
/// long ones first lets the short ones fill the gaps at the end. The order is fixed when the job is
/// planned, from each chunk's work and the stage's cost in the job's cost model at that moment (the
/// kind's defaults, for a new job), so the stored plan stays a function of the inputs and settings;
/// it changes only which chunk a worker takes next, never the chunks' indexes, their outputs or
/// the result, which is assembled in index order.
public enum ClaimOrder {
    /// Each chunk's rank in claim order, by index: 0 for the chunk claimed first.
    /// - Parameters:
    ///   - chunks: the planned chunks, in index order.
    ///   - costs: the unit costs that price each chunk's work in its stage.
    public static func ranks(of chunks: [PlannedChunk], costs: UnitCostModel) -> [Int] {
        let expected = chunks.map { costs.cost(of: $0.work, in: $0.stage) }
        let order = chunks.indices.sorted { expected[$0] > expected[$1] || (expected[$0] == expected[$1] && $0 < $1) }
        var ranks = Array(repeating: 0, count: chunks.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }
}
