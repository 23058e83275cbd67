import TaskContract

/// The work of a job's chunks not yet done, summed by stage, with how many chunks each sum holds:
/// what the progress bar weighs as still owed.
///
/// Stores keep it as counters that each chunk moves as it is planned, done or reset
/// (``JobStore/owedWork(of:)``), so that a worker costing the chunk it holds reads a few rows in a
/// job of any size instead of every owed chunk's plan.
public struct OwedWork: Sendable, Equatable {
    /// One stage's owed work and how many chunks it comes from.
    public struct Sum: Sendable, Equatable {
        public var work: Double
        public var chunks: Int

        public init(work: Double, chunks: Int) {
            self.work = work
            self.chunks = chunks
        }
    }

    /// The sums by stage; a stage with nothing owed has none.
    public private(set) var stages: [Stage: Sum]

    /// Owed work from sums by stage; sums of no chunks are left out.
    public init(_ stages: [Stage: Sum] = [:]) {
        self.stages = stages.filter { $0.value.chunks > 0 }
    }

    /// Adds a chunk's work to its stage's sum.
    mutating func add(_ chunk: OwedChunk) {
        stages[chunk.stage, default: Sum(work: 0, chunks: 0)].work += chunk.work
        stages[chunk.stage, default: Sum(work: 0, chunks: 0)].chunks += 1
    }

    /// Takes a chunk's work out of its stage's sum; a stage with nothing left owes exactly
    /// nothing, whatever rounding the subtractions left behind.
    mutating func remove(_ chunk: OwedChunk) {
        guard let sum = stages[chunk.stage] else { return }
        stages[chunk.stage] = sum.chunks > 1 ? Sum(work: max(0, sum.work - chunk.work), chunks: sum.chunks - 1) : nil
    }
}
