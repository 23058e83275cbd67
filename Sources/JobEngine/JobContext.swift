import Foundation
import Synchronization
import TaskContract

/// What a chunk or the finalisation of a job may use: its workspace, its task, and the record of
/// the items it skips.
public struct JobContext: Sendable {
    /// The job's private folder.
    public let workspace: Workspace
    /// The running task: words, stop signal.
    public let task: ContinuedTask
    /// Items skipped before this work began: by the job's done chunks, when this is finalisation.
    private let skippedBefore: [ItemFailure]
    /// Items this work skipped; the engine stores them with its checkpoint.
    private let skippedNow = SkippedItemLog()
    /// Whether an input this machine cannot open fails the work even where bad items are skipped:
    /// a worker's chunk, which another machine may still be able to do.
    let leavesUnreachableInputsToOthers: Bool
    /// Appends an entry to the job's journal, with the chunk's index added by the engine.
    private let journalEntry: @Sendable (JournalEntry.Event, [String: String]) -> Void

    /// - Parameters:
    ///   - skipped: items skipped before this work began (the engine gives finalisation those its
    ///     chunks skipped).
    ///   - leavesUnreachableInputsToOthers: see the property of that name.
    ///   - journal: appends an entry to the job's journal (by default nothing is journalled).
    package init(workspace: Workspace, task: ContinuedTask, skipped: [ItemFailure] = [],
                 leavesUnreachableInputsToOthers: Bool = false,
                 journal: @escaping @Sendable (JournalEntry.Event, [String: String]) -> Void = { _, _ in }) {
        self.workspace = workspace
        self.task = task
        self.skippedBefore = skipped
        self.leavesUnreachableInputsToOthers = leavesUnreachableInputsToOthers
        self.journalEntry = journal
    }

    /// Records `event` with `detail` in the job's lifecycle journal (`mediajob status JOB
    /// --journal`), the chunk's index added: for internal detail that tells what the work did,
    /// such as waiting for memory, never for progress text. Best effort: a journal that cannot be
    /// written does not fail the work.
    public func journal(_ event: JournalEntry.Event, _ detail: [String: String]) {
        journalEntry(event, detail)
    }

    /// Whether the work in hand should stop: the job was asked to stop, or a sibling chunk failed.
    /// Long work checks this between frames or rows.
    public var isStopRequested: Bool { task.isExpired || Task.isCancelled }

    /// Throws ``JobStopped`` when the work in hand should stop, abandoning it.
    public func checkStop() throws {
        if isStopRequested { throw JobStopped() }
    }

    /// Leaves a bad item out on purpose: the engine stores it as skipped with this chunk's
    /// checkpoint (or with the package stage), `status` shows it, and a resumed job does not try
    /// it again.
    public func skip(_ item: ItemFailure) {
        skippedNow.append(item)
    }

    /// Every item skipped so far: before this work began and by it.
    public var skippedItems: [ItemFailure] { skippedBefore + skippedNow.items }

    /// The items this work skipped.
    var skippedByThisWork: [ItemFailure] { skippedNow.items }
}

/// Thrown by work that abandons itself because the job was asked to stop. The engine then ends
/// the job as paused; the abandoned chunk is redone on resume.
public struct JobStopped: Error, Equatable {
    public init() {}
}

/// The items one piece of work skipped, appended from whichever thread does the work.
private final class SkippedItemLog: Sendable {
    private let list = Mutex<[ItemFailure]>([])

    func append(_ item: ItemFailure) { list.withLock { $0.append(item) } }

    var items: [ItemFailure] { list.withLock { $0 } }
}
