import Foundation
import JobEngine
import Synchronization
import TaskContract

/// A ``JobStore`` in memory, for fast engine tests. Keeps the store contract (it runs the
/// conformance suite, JobStoreConformance) within one process; it is not durable and not shared
/// between processes.
public final class InMemoryJobStore: JobStore {
    private struct Contents {
        var jobs: [JobID: JobRecord] = [:]
        var chunks: [JobID: [ChunkRecord]] = [:]
        var badItems: [JobID: [BadItem]] = [:]
        var journal: [JournalEntry] = []
        var cancels: Set<JobID> = []
        var costs: [String: [Stage: Double]] = [:]
        var sequence: Int64 = 0
        /// Checkpoints to accept before failing, when set.
        var checkpointsBeforeFailure: Int?

        /// Replaces the bad items of one chunk (or of the package stage, `chunk` nil) with `items`.
        mutating func replaceBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?) {
            badItems[id, default: []].removeAll { $0.chunkIndex == chunk }
            badItems[id, default: []] += items.map { BadItem(item: $0.item, reason: $0.reason, outcome: outcome, chunkIndex: chunk) }
        }
    }

    private let contents = Mutex(Contents())

    public init() {}

    /// Makes the `n`-th checkpoint from now (0 = the next) throw, as a full disk would.
    public func failCheckpoint(after n: Int) {
        contents.withLock { $0.checkpointsBeforeFailure = n }
    }

    public func insert(_ job: JobRecord, chunks: [PlannedChunk]) throws -> JobRecord {
        contents.withLock { contents in
            var job = job
            contents.sequence += 1
            job.queueSequence = contents.sequence
            contents.jobs[job.id] = job
            contents.chunks[job.id] = chunks.enumerated().map { ChunkRecord(index: $0.offset, plan: $0.element) }
            contents.journal.append(JournalEntry(jobID: job.id, event: .submitted, detail: ["chunks": String(chunks.count)]))
            return job
        }
    }

    public func job(_ id: JobID) throws -> JobRecord? {
        contents.withLock { $0.jobs[id] }
    }

    public func jobs() throws -> [JobRecord] {
        contents.withLock { $0.jobs.values.sorted { $0.queueSequence < $1.queueSequence } }
    }

    public func unfinishedJob(workKey: String) throws -> JobRecord? {
        contents.withLock { contents in
            contents.jobs.values.filter { $0.workKey == workKey && !$0.state.isFinished }
                .min { $0.queueSequence < $1.queueSequence }
        }
    }

    public func chunks(of id: JobID) throws -> [ChunkRecord] {
        contents.withLock { $0.chunks[id] ?? [] }
    }

    public func checkpoint(_ checkpoint: Checkpoint) throws {
        try contents.withLock { contents in
            if let left = contents.checkpointsBeforeFailure {
                guard left > 0 else {
                    contents.checkpointsBeforeFailure = nil
                    throw FileSystemError("write", path: "memory", code: ENOSPC)
                }
                contents.checkpointsBeforeFailure = left - 1
            }
            let id = checkpoint.jobID
            let first = !(contents.chunks[id] ?? []).contains { $0.isDone }
            // Positions and indices part once a replan removed chunks.
            guard let position = contents.chunks[id]?.firstIndex(where: { $0.index == checkpoint.chunkIndex }) else {
                throw JobStoreError.noSuchChunk(id, index: checkpoint.chunkIndex)
            }
            contents.chunks[id]?[position].isDone = true
            contents.chunks[id]?[position].costSeconds = checkpoint.costSeconds
            contents.chunks[id]?[position].executor = checkpoint.executor
            contents.replaceBadItems(checkpoint.skipped, outcome: .skipped, of: id, chunk: checkpoint.chunkIndex)
            contents.jobs[id]?.progress = checkpoint.progress
            contents.jobs[id]?.updatedAt = Date()
            contents.costs[checkpoint.kind, default: [:]][checkpoint.stage] =
                checkpoint.progress.costs.estimate(for: checkpoint.stage)
            if first { contents.journal.append(JournalEntry(jobID: id, event: .progressFirst)) }
            contents.journal.append(JournalEntry(jobID: id, event: .checkpoint, detail: [
                "chunk": String(checkpoint.chunkIndex),
                "fraction": String(format: "%.4f", checkpoint.progress.fraction),
            ]))
        }
    }

    public func recordBadItems(_ items: [ItemFailure], outcome: BadItem.Outcome, of id: JobID, chunk: Int?) throws {
        contents.withLock { $0.replaceBadItems(items, outcome: outcome, of: id, chunk: chunk) }
    }

    public func badItems(of id: JobID) throws -> [BadItem] {
        contents.withLock { contents in
            // Chunks in order, then the package stage; within one, as recorded.
            (contents.badItems[id] ?? []).enumerated().sorted { a, b in
                let (left, right) = (a.element.chunkIndex ?? .max, b.element.chunkIndex ?? .max)
                return left != right ? left < right : a.offset < b.offset
            }.map(\.element)
        }
    }

    public func transition(_ id: JobID, to change: StateChange, journal event: JournalEntry?) throws {
        try contents.withLock { contents in
            guard var job = contents.jobs[id] else { throw JobStoreError.noSuchJob(id) }
            if change.state == .queued, job.state != .queued {
                contents.sequence += 1
                job.queueSequence = contents.sequence
            }
            job.state = change.state
            job.failure = change.failure
            job.rejection = change.rejection
            job.message = change.message
            if let progress = change.progress { job.progress = progress }
            if let pid = change.ownerPID { job.ownerPID = pid }
            job.updatedAt = Date()
            contents.jobs[id] = job
            if change.clearsCancel { contents.cancels.remove(id) }
            if change.state == .completed, let progress = change.progress {
                contents.costs[job.kind, default: [:]].merge(progress.costs.estimates) { _, new in new }
            }
            if let event { contents.journal.append(event) }
        }
    }

    public func remove(_ id: JobID) throws {
        contents.withLock { contents in
            contents.jobs[id] = nil
            contents.chunks[id] = nil
            contents.badItems[id] = nil
            contents.journal.removeAll { $0.jobID == id }
            contents.cancels.remove(id)
        }
    }

    public func resetChunks(of id: JobID, progress: ProgressSnapshot) throws {
        contents.withLock { contents in
            contents.chunks[id] = contents.chunks[id]?.map { ChunkRecord(index: $0.index, plan: $0.plan) }
            contents.badItems[id] = nil
            contents.jobs[id]?.progress = progress
        }
    }

    public func replan(_ replan: Replan) throws {
        try contents.withLock { contents in
            let id = replan.jobID
            guard var job = contents.jobs[id] else { throw JobStoreError.noSuchJob(id) }
            job.spec = replan.spec
            job.workKey = replan.workKey
            job.progress = replan.progress
            job.updatedAt = Date()
            contents.jobs[id] = job
            let kept = (contents.chunks[id] ?? []).filter { $0.isDone && !replan.redoing.contains($0.index) }
            let first = (kept.map(\.index).max() ?? -1) + 1
            contents.chunks[id] = kept + replan.chunks.enumerated().map { ChunkRecord(index: first + $0.offset, plan: $0.element) }
            let keptIndices = Set(kept.map(\.index))
            contents.badItems[id]?.removeAll { $0.chunkIndex.map { !keptIndices.contains($0) } ?? true }
            contents.journal.append(replan.journalEntry)
        }
    }

    public func requestCancel(_ id: JobID) throws {
        _ = contents.withLock { $0.cancels.insert(id) }
    }

    public func isCancelRequested(_ id: JobID) throws -> Bool {
        contents.withLock { $0.cancels.contains(id) }
    }

    public func costHistory(kind: String) throws -> [Stage: Double] {
        contents.withLock { $0.costs[kind] ?? [:] }
    }

    public func journal(of id: JobID) throws -> [JournalEntry] {
        contents.withLock { $0.journal.filter { $0.jobID == id } }
    }

    public func append(_ entry: JournalEntry) throws {
        contents.withLock { $0.journal.append(entry) }
    }
}
