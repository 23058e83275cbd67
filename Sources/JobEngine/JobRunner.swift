import Foundation
import Glibc
import Synchronization
import TaskContract

/// Runs one admitted job in this process: chunks, checkpoints, finalisation, publication.
///
/// The loop is: check stop → run a chunk → checkpoint it (one transaction) → publish progress.
/// Progress is published only after the store holds it, so what the person sees is durable.
struct JobRunner {
    let store: any JobStore
    let kind: AnyJobKind
    let record: JobRecord
    let task: ContinuedTask
    /// How many chunks run at once.
    let chunksAtOnce: Int
    /// How often the watcher looks for a cancel asked for through the store.
    let cancelPollInterval: Duration
    /// What holds all work for now (the machine is too hot); checked at every chunk boundary.
    let hostCondition: (any HostCondition)?

    private var workspace: Workspace { Workspace(directory: URL(fileURLWithPath: record.workspace)) }

    /// Runs the job to an outcome and records it. Does not complete the task.
    func run() async -> TaskOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let watcher = startWatcher()
        defer { watcher.cancel() }

        var tracker: ProgressTracker
        // The tracker keeps a bit per owed chunk and the last few in run order; the plans stay in
        // the store until each chunk runs: a job of 100,000 chunks held every decoded plan for the
        // whole run, then a table of every owed chunk.
        do {
            try workspace.prepare()
            workspace.sweepTemporaries()
            tracker = ProgressTracker(
                snapshot: try ProgressTracker.seeded(record, kind: kind, store: store),
                owed: try store.owedChunks(of: record.id), chunksAtOnce: chunksAtOnce
            )
        } catch {
            return fail(error, progress: nil)
        }
        let context = JobContext(workspace: workspace, task: task)

        var hostReason: String?
        let failure = await runChunks(context: context, tracker: &tracker, hostReason: &hostReason, start: start)
        func elapsed() -> Double { (clock.now - start).seconds }
        if let failure {
            tracker.stopped(elapsed: elapsed())
            return fail(failure, progress: tracker.snapshot)
        }
        if task.isExpired {
            tracker.stopped(elapsed: elapsed())
            return pause(progress: tracker.snapshot, reason: hostReason)
        }

        do {
            let finalizeStart = clock.now
            let skipped = try store.badItems(of: record.id).filter { $0.outcome == .skipped && $0.chunkIndex != nil }
            let packaging = JobContext(workspace: try workspace.reading(outputs: try store.leaseOutputs(of: record.id)),
                                       task: task, skipped: skipped.map(\.failure))
            let artifact: URL
            do {
                artifact = try await kind.finalize(record.spec, PlannedChunks(of: record.id, in: store), packaging)
            } catch let failure as ItemFailure where !task.isExpired {
                try store.recordBadItems([failure], outcome: .failed, of: record.id, chunk: nil)
                throw failure
            }
            try store.recordBadItems(packaging.skippedByThisWork, outcome: .skipped, of: record.id, chunk: nil)
            try FaultPoints.step(.finalize, operation: "finalize", path: artifact.path) {}
            if task.isExpired {
                tracker.stopped(elapsed: elapsed())
                return pause(progress: tracker.snapshot)
            }
            try FaultPoints.step(.publish, operation: "rename", path: record.destination) { try publish(artifact) }
            tracker.finished(finalizeCost: (clock.now - finalizeStart).seconds, elapsed: elapsed())
            try store.transition(record.id, to: StateChange(state: .completed, progress: tracker.snapshot, clearsCancel: true),
                                 journal: JournalEntry(jobID: record.id, event: .ended, detail: ["outcome": "completed"]))
        } catch where error is JobStopped || task.isExpired {
            // A library that noticed the stop reports it its own way; any error while a stop is
            // asked for is the stop.
            tracker.stopped(elapsed: elapsed())
            return pause(progress: tracker.snapshot)
        } catch {
            tracker.stopped(elapsed: elapsed())
            return fail(error, progress: tracker.snapshot)
        }
        task.publish(tracker.snapshot)
        try? workspace.remove()
        return .completed
    }

    /// Runs the owed chunks in index order, read from the store a page at a time, up to
    /// ``chunksAtOnce`` at once, checkpointing them as they land (with the items they skipped). A
    /// chunk that throws ``ItemFailure`` or ``ItemFailures`` does not stop the others; its bad items
    /// are stored as failed with the chunk and reported together.
    /// At each boundary, a ``HostCondition`` that holds work stops the job and sets `hostReason`.
    ///
    /// Chunks that land while the last checkpoint is being made are checkpointed together (group
    /// commit): one sync of the folders their outputs were renamed in, then one transaction, and
    /// only then does the bar move. Until then each of them is still in flight: a kill redoes it.
    /// - Returns: the first error (or the item failures), or `nil` when every chunk ran or the job
    ///   was asked to stop.
    private func runChunks(
        context: JobContext, tracker: inout ProgressTracker, hostReason: inout String?, start: ContinuousClock.Instant
    ) async -> (any Error)? {
        var queue = ChunkPages(of: record.id, in: store, owedOnly: true)
        var failure: (any Error)?
        var itemFailures: [ItemFailure] = []
        let kind = self.kind
        let runChunk: @Sendable (PlannedChunk, JobContext) async throws -> String?
        do {
            runChunk = try kind.chunkRunner(record.spec)
        } catch {
            return error
        }
        // The chunks' commits leave their folders' syncs to this loop, which does them once for
        // every chunk it checkpoints together. The first checkpoint also syncs the workspace's own
        // entry in its parent (once a run, not once a chunk): a power cut must not take away the
        // folder of outputs a checkpoint says are there.
        let folderSyncs = FolderSyncs()
        folderSyncs.add(context.workspace.directory.deletingLastPathComponent())
        let workspace = context.workspace.deferringFolderSyncs(to: folderSyncs)
        let landed = LandedChunks()
        /// Runs one chunk, timed, in a context that journals with the chunk's index.
        @Sendable func run(_ chunk: ChunkRecord) async -> ChunkResult {
            let clock = ContinuousClock()
            let began = clock.now
            let chunkContext = JobContext(workspace: workspace, task: task) { [store, record] event, detail in
                try? store.append(JournalEntry(jobID: record.id, event: event,
                                               detail: detail.merging(["chunk": String(chunk.index)]) { $1 }))
            }
            do {
                try chunkContext.checkStop()
                try FaultPoints.step(.chunk, operation: "chunk", path: String(chunk.index)) {}
                let executor = try await runChunk(chunk.plan, chunkContext)
                return ChunkResult(chunk: chunk, cost: (clock.now - began).seconds, result: .success(executor),
                                   skipped: chunkContext.skippedByThisWork)
            } catch {
                return ChunkResult(chunk: chunk, cost: 0, result: .failure(error), skipped: [])
            }
        }
        return await withTaskGroup(of: Void.self) { group in
            /// Stores a chunk's bad items as failed; the job goes on and fails listing them at the end.
            func failItems(_ failed: [ItemFailure], of chunk: ChunkRecord) {
                itemFailures += failed
                do {
                    try store.recordBadItems(failed, outcome: .failed, of: record.id, chunk: chunk.index)
                } catch {
                    if failure == nil { failure = error }
                    group.cancelAll()
                }
            }
            // The chunks started whose results were not taken yet.
            var inFlight = 0
            while true {
                // A cancel asked for from another process is seen here, at the boundary, as well as by the watcher.
                if (try? store.isCancelRequested(record.id)) == true { task.expire() }
                if hostReason == nil, !task.isExpired, let reason = hostCondition?.reasonToWait() {
                    hostReason = reason
                    try? store.append(JournalEntry(jobID: record.id, event: .checkpoint, detail: ["held": reason]))
                    task.expire()
                }
                while inFlight < chunksAtOnce, failure == nil, !task.isExpired {
                    let chunk: ChunkRecord
                    do {
                        guard let next = try queue.next() else { break }
                        chunk = next
                    } catch {
                        failure = error
                        group.cancelAll()
                        break
                    }
                    if chunksAtOnce == 1 {
                        // One at a time: the chunk runs in this task, not a child's, which saves
                        // two thread switches a chunk (each a wait for a core on a busy machine).
                        landed.add(await run(chunk))
                    } else {
                        group.addTask { landed.add(await run(chunk)) }
                    }
                    inFlight += 1
                }
                guard inFlight > 0 else { break }
                // A chunk ended (or one whose result was taken already was reaped): every result
                // there is now is taken, so that chunks landing together share a checkpoint.
                if chunksAtOnce > 1 { _ = await group.next() }
                let results = landed.takeAll()
                inFlight -= results.count
                var succeeded: [ChunkResult] = []
                for finished in results {
                    switch finished.result {
                    case .success:
                        if failure == nil { succeeded.append(finished) }
                    case .failure(let error) where error is JobStopped || task.isExpired:
                        continue
                    case .failure(let error as ItemFailure):
                        failItems([error], of: finished.chunk)
                    case .failure(let error as ItemFailures):
                        failItems(error.failures, of: finished.chunk)
                    case .failure(let error):
                        if failure == nil { failure = error }
                        group.cancelAll()
                    }
                }
                guard !succeeded.isEmpty else { continue }
                do {
                    try checkpoint(succeeded, syncing: folderSyncs, tracker: &tracker, start: start)
                } catch {
                    if failure == nil { failure = error }
                    group.cancelAll()
                }
            }
            if failure == nil, !itemFailures.isEmpty, !task.isExpired { failure = ItemFailures(failures: itemFailures) }
            return failure
        }
    }

    /// Makes the chunks that landed together durable, then moves the bar: syncs the folders their
    /// outputs were renamed in, records them all done in one transaction, and only then accounts
    /// for them in `tracker` and publishes the new progress.
    private func checkpoint(_ landed: [ChunkResult], syncing folders: FolderSyncs, tracker: inout ProgressTracker,
                            start: ContinuousClock.Instant) throws {
        let elapsed = (ContinuousClock.now - start).seconds
        let snapshots = tracker.snapshots(after: landed.map { (OwedChunk($0.chunk), $0.cost) }, elapsed: elapsed)
        try folders.syncPending()
        try store.checkpoint(zip(landed, snapshots).map { finished, progress in
            Checkpoint(jobID: record.id, chunkIndex: finished.chunk.index, stage: finished.chunk.plan.stage, kind: record.kind,
                       costSeconds: finished.cost, executor: finished.executor, progress: progress, skipped: finished.skipped)
        })
        for finished in landed { tracker.chunkDone(OwedChunk(finished.chunk), cost: finished.cost, elapsed: elapsed) }
        if kind.showsCountsInSubtitle {
            task.updateTitle(task.title, subtitle: Self.subtitle(for: tracker.snapshot))
        }
        task.publish(tracker.snapshot)
    }

    /// Moves the validated artifact onto the destination with one rename.
    ///
    /// An existing destination is replaced only when the job was submitted with `overwrite`.
    /// One that is byte-identical to the artifact is this job's own, published before a crash
    /// that came before the store heard of it, and is kept.
    func publish(_ artifact: URL) throws {
        let destination = URL(fileURLWithPath: record.destination)
        guard DurableFiles.exists(destination) else {
            return try DurableFiles.rename(artifact, to: destination, replacing: false)
        }
        if FileManager.default.contentsEqual(atPath: artifact.path, andPath: destination.path) {
            try store.append(JournalEntry(jobID: record.id, event: .checkpoint, detail: ["published": "already"]))
            return
        }
        guard record.overwrite else { throw FileSystemError("rename", path: destination.path, code: EEXIST) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            try DurableFiles.exchange(artifact, with: destination)
            try DurableFiles.remove(artifact)
        } else {
            try DurableFiles.rename(artifact, to: destination, replacing: true)
        }
    }

    /// Ends the job paused; `reason` (why the machine holds work) becomes its message.
    private func pause(progress: ProgressSnapshot, reason: String? = nil) -> TaskOutcome {
        do {
            try store.transition(record.id, to: StateChange(state: .paused, message: reason, progress: progress,
                                                            clearsCancel: true),
                                 journal: JournalEntry(jobID: record.id, event: .ended, detail: ["outcome": "paused"]))
        } catch {
            return fail(error, progress: nil)
        }
        return .paused
    }

    private func fail(_ error: any Error, progress: ProgressSnapshot?) -> TaskOutcome {
        let category = error.failureCategory
        // Whichever library hit the full disk, and on whichever of the workspace's files, the
        // person needs to know which destination's device to free space on.
        let message = category == .noSpace
            ? "no space left on the device holding \(record.destination); free some space there, then resume"
            : error.personMessage
        try? store.transition(
            record.id,
            to: StateChange(state: .failed, failure: category, message: message, progress: progress, clearsCancel: true),
            journal: JournalEntry(jobID: record.id, event: .ended,
                                  detail: ["outcome": "failed", "category": category.rawValue, "error": String(describing: error)]))
        return .failed(category)
    }

    /// Turns a stop asked for through the store (by another process) into the task's expiry.
    private func startWatcher() -> Task<Void, Never> {
        let store = self.store, id = record.id, task = self.task, interval = cancelPollInterval
        return Task.detached {
            while !Task.isCancelled {
                if (try? store.isCancelRequested(id)) == true { task.expire() }
                try? await Task.sleep(for: interval)
            }
        }
    }
}

extension JobRunner {
    /// The committed count in the person's words: the stage of the last chunk and the units done,
    /// `encode 5/8`; always within the 30 characters a subtitle may have.
    static func subtitle(for snapshot: ProgressSnapshot) -> TaskSubtitle {
        let counts = "\(snapshot.unitsDone)/\(snapshot.unitsTotal)"
        let stage = String((snapshot.stage?.rawValue ?? "working").prefix(TaskSubtitle.maximumLength - counts.count - 1))
        return (try? TaskSubtitle("\(stage) \(counts)")) ?? TaskSubtitle(stringLiteral: String(counts.prefix(30)))
    }
}

private struct ChunkResult: Sendable {
    var chunk: ChunkRecord
    var cost: Double
    /// The chunk's executor, or why it did not finish.
    var result: Result<String?, any Error>
    /// The items the chunk skipped.
    var skipped: [ItemFailure]

    /// The path that did the chunk; `nil` for one that did not finish.
    var executor: String? {
        guard case .success(let executor) = result else { return nil }
        return executor
    }
}

/// The results of the chunks that ended and were not checkpointed yet: each chunk's task adds its
/// own as its last step, and the runner takes all there are at once.
private final class LandedChunks: Sendable {
    private let results = Mutex<[ChunkResult]>([])

    func add(_ result: ChunkResult) {
        results.withLock { $0.append(result) }
    }

    func takeAll() -> [ChunkResult] {
        results.withLock { results in
            defer { results = [] }
            return results
        }
    }
}

extension Duration {
    /// The duration in seconds (as stores keep leases).
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
