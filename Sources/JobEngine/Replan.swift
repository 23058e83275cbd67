import Foundation
import TaskContract

/// Part of a stopped job planned again from new settings (for example a project whose failed
/// assets were fixed): what ``JobStore/replan(_:)`` stores in one transaction.
///
/// The chunks not done, and the done ones in ``redoing``, are removed with their bad items; the
/// new ``chunks`` follow the job's last remaining chunk, not done. Chunks done and not redone keep
/// their index, their cost and their output.
public struct Replan: Sendable, Equatable {
    public var jobID: JobID
    /// The job kind's new settings, as JSON.
    public var spec: Data
    /// The work key of the new settings (``JobRecord/workKey``).
    public var workKey: String
    /// Indices of done chunks to do again; every chunk not done is replaced whatever this says.
    public var redoing: Set<Int>
    /// The chunks that replace the removed ones, in order.
    public var chunks: [PlannedChunk]
    /// The job's progress with the chunks replaced: the kept chunks done, the new ones owed.
    public var progress: ProgressSnapshot

    public init(jobID: JobID, spec: Data, workKey: String, redoing: Set<Int>, chunks: [PlannedChunk],
                progress: ProgressSnapshot) {
        self.jobID = jobID
        self.spec = spec
        self.workKey = workKey
        self.redoing = redoing
        self.chunks = chunks
        self.progress = progress
    }

    /// The journal line the store writes with it: `submitted`, saying how many chunks were replanned.
    public var journalEntry: JournalEntry {
        JournalEntry(jobID: jobID, event: .submitted, detail: ["replan": "true", "chunks": String(chunks.count)])
    }
}
