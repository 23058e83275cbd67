/// The plans of a job's chunks in index order, read from its store a page at a time: what
/// ``JobKind/finalize(_:chunks:in:)`` is handed, so that packaging a job of many chunks never
/// holds every plan at once (100,000 of them took about 14 MB).
public struct PlannedChunks: Sendable {
    private let store: any JobStore
    private let id: JobID

    /// The plans of job `id`'s chunks in `store`.
    package init(of id: JobID, in store: any JobStore) {
        self.store = store
        self.id = id
    }

    /// Calls `body` with each plan, in index order.
    /// - Throws: what `body` throws, or what the store throws reading a page.
    public func forEach(_ body: (PlannedChunk) throws -> Void) throws {
        var pages = ChunkPages(of: id, in: store, owedOnly: false)
        while let chunk = try pages.next() { try body(chunk.plan) }
    }

    /// Every plan, in index order, in one array: for packaging that needs them all at once.
    /// - Throws: what the store throws.
    public func all() throws -> [PlannedChunk] {
        var plans: [PlannedChunk] = []
        try forEach { plans.append($0) }
        return plans
    }
}
