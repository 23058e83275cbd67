import TaskContract

/// A job's chunks read from its store a page at a time, in index order: what the runner walks
/// to take its next chunk, instead of holding every chunk's decoded plan for the whole run.
struct ChunkPages {
    /// How many chunks one read of the store brings.
    static let pageSize = 256

    private let store: any JobStore
    private let id: JobID
    private let owedOnly: Bool
    /// The page being walked, last chunk first.
    private var page: [ChunkRecord] = []
    /// The smallest index not read yet.
    private var nextIndex = 0
    private var isExhausted = false

    /// The chunks of job `id` in `store`; with `owedOnly`, only those not done.
    init(of id: JobID, in store: any JobStore, owedOnly: Bool) {
        self.store = store
        self.id = id
        self.owedOnly = owedOnly
    }

    /// The next chunk in index order, or `nil` after the last.
    /// - Throws: what the store throws.
    mutating func next() throws -> ChunkRecord? {
        while true {
            if page.isEmpty {
                guard !isExhausted else { return nil }
                let read = try store.chunks(of: id, from: nextIndex, limit: Self.pageSize)
                isExhausted = read.count < Self.pageSize
                nextIndex = (read.last?.index ?? nextIndex) + 1
                page = read.reversed()
            }
            guard let chunk = page.popLast() else { continue }
            if !owedOnly || !chunk.isDone { return chunk }
        }
    }
}

extension JobStore {
    /// The job's chunks not yet done, as a ``ProgressTracker`` keeps them while the job runs
    /// (their work by stage, a bit each, the last ones in run order), read a page at a time.
    func owedChunks(of id: JobID) throws -> OwedChunks {
        var pages = ChunkPages(of: id, in: self, owedOnly: true)
        return try OwedChunks { try pages.next().map(OwedChunk.init) }
    }

    /// The output folders the job's done chunks recorded under leases
    /// (``Workspace/reading(outputs:)``), read a page at a time.
    func leaseOutputs(of id: JobID) throws -> [String] {
        var pages = ChunkPages(of: id, in: self, owedOnly: false)
        var outputs: [String] = []
        while let chunk = try pages.next() {
            if chunk.isDone, let output = chunk.output { outputs.append(output) }
        }
        return outputs
    }
}
