import TaskContract

/// The chunks a job still owes, as its ``ProgressTracker`` keeps them: their work summed by stage,
/// one bit each for whether it is still owed, and the last ``ProgressTracker/laidOutChunks`` in run
/// order one by one (the time left lays those out on the workers).
///
/// A job of 100,000 chunks keeps 12.5 kB of bits and 256 chunks, where a table of every owed
/// chunk took megabytes for the whole run.
struct OwedChunks {
    /// The owed work by stage.
    private(set) var work = OwedWork()
    /// The same sums over the owed chunks of ``tail``.
    private(set) var tailWork = OwedWork()
    /// The last ``ProgressTracker/laidOutChunks`` chunks owed at the start, in run order; the
    /// landed ones stay (``contains(_:)`` says which are still owed).
    private(set) var tail: [OwedChunk] = []
    /// Bit `i` of word `i / 64` says whether the chunk at index ``base`` + `i` is owed.
    private var bits: [UInt64] = []
    /// The index of the first chunk owed at the start.
    private var base = 0

    /// Nothing owed.
    init() {}

    /// `chunks`, in any order; a chunk listed twice counts once.
    init(_ chunks: [OwedChunk]) {
        var sorted = chunks.sorted { $0.index < $1.index }.makeIterator()
        self.init { sorted.next() }
    }

    /// The chunks `next` gives, in run order (rising indices), until it gives `nil`; one whose
    /// index is not above the one before is left out.
    /// - Throws: what `next` throws.
    init(reading next: () throws -> OwedChunk?) rethrows {
        let kept = ProgressTracker.laidOutChunks
        var last: Int?
        while let chunk = try next() {
            guard last.map({ chunk.index > $0 }) ?? true else { continue }
            if last == nil { base = chunk.index }
            last = chunk.index
            work.add(chunk)
            setBit(chunk.index)
            tail.append(chunk)
            // Keep no more than twice the chunks laid out: the older half goes at once.
            if tail.count == 2 * kept { tail.removeFirst(kept) }
        }
        tail = Array(tail.suffix(kept))
        for chunk in tail { tailWork.add(chunk) }
    }

    /// What a worker holding one chunk under a lease knows: the owed work as its store counts it,
    /// and the chunk it is landing.
    init(work: OwedWork, landing chunk: OwedChunk) {
        self.work = work
        base = chunk.index
        setBit(chunk.index)
    }

    /// Whether chunk `index` is still owed.
    func contains(_ index: Int) -> Bool {
        let offset = index - base
        guard offset >= 0, offset / 64 < bits.count else { return false }
        return bits[offset / 64] & (1 << UInt64(offset % 64)) != 0
    }

    /// Whether nothing is owed any more.
    var isEmpty: Bool { work.stages.isEmpty }

    /// Whether chunk `index` is among those laid out one by one.
    func isLaidOut(_ index: Int) -> Bool {
        guard let first = tail.first else { return false }
        return index >= first.index
    }

    /// Takes `chunk`'s work out of the sums; ``contains(_:)`` still says it is owed until
    /// ``forget(_:)``. A trial copy of a tracker accounts for a chunk this way without copying the
    /// bits.
    mutating func account(_ chunk: OwedChunk) {
        work.remove(chunk)
        if isLaidOut(chunk.index) { tailWork.remove(chunk) }
    }

    /// Marks chunk `index` no longer owed.
    mutating func forget(_ index: Int) {
        let offset = index - base
        guard offset >= 0, offset / 64 < bits.count else { return }
        bits[offset / 64] &= ~(1 << UInt64(offset % 64))
    }

    private mutating func setBit(_ index: Int) {
        let offset = index - base
        while bits.count <= offset / 64 { bits.append(0) }
        bits[offset / 64] |= 1 << UInt64(offset % 64)
    }
}
