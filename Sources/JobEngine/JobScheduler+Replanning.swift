import Foundation
import TaskContract

/// Resuming a job with part of it planned again: its settings changed only in what its failed or
/// skipped work depends on (a missing file now exists, a wrong entry was corrected).
extension JobScheduler {
    /// Takes a paused, interrupted or failed job into this process, as ``resume(_:strategy:)`` does,
    /// after planning it again from `spec` unless its work identity (``JobKind/workIdentity(of:)``)
    /// is unchanged: chunks done and not picked by `redo` stay done (with their outputs), every
    /// other chunk is replaced by what the new plan holds beyond the kept ones. A kept chunk the
    /// new plan no longer holds is done again too.
    /// - Parameters:
    ///   - spec: the job's new settings, of its kind's settings type.
    ///   - redo: picks the done chunks to do again (those of the items being planned again).
    /// - Throws: what ``resume(_:strategy:)`` throws (a `.fail` resume refused for capacity leaves
    ///   the job as it was, unplanned); what the kind's planning throws (the job stays as it was);
    ///   ``SchedulerError/replanMovesDestination(_:from:to:)`` when the new settings publish elsewhere.
    public func resume<Spec: Codable & Sendable>(
        _ id: JobID, replanning spec: Spec, redoing redo: (PlannedChunk) -> Bool, strategy: SubmissionStrategy = .queue
    ) throws -> JobHandle {
        if let reason = hostCondition?.reasonToWait() { throw SchedulerError.hostHolding(id, reason) }
        let (record, lock) = try take(id, for: .resume)
        guard let kind = registeredKind(for: record.request.identifier) else {
            throw SchedulerError.rejected(id, .unregisteredIdentifier(record.request.identifier))
        }
        guard kind.accepts(Spec.self) else {
            throw SchedulerError.rejected(id, .wrongSettingsType(kind: kind.name, expected: kind.specTypeName, given: "\(Spec.self)"))
        }
        let specData = try AnyJobKind.encode(spec)
        let workKey = try kind.workKey(specData)
        // The same settings and inputs (files, sizes, times): the plan would be the same.
        guard workKey != record.workKey else { return try enqueue(record, strategy: strategy, lock: lock, journal: nil) }
        let plan = try kind.plan(specData)
        guard plan.destination.path == record.destination else {
            throw SchedulerError.replanMovesDestination(id, from: record.destination, to: plan.destination.path)
        }
        var owed = plan.chunks
        var redoing: Set<Int> = [], kept = 0
        for chunk in try store.chunks(of: id) where chunk.isDone {
            if !redo(chunk.plan), let planned = owed.firstIndex(of: chunk.plan) {
                owed.remove(at: planned)
                kept += 1
            } else {
                redoing.insert(chunk.index)
            }
        }
        var progress = record.progress
        progress.unitsTotal = plan.chunks.count
        progress.unitsDone = kept
        progress.finalizeWork = plan.finalizeWork
        let replan = Replan(jobID: id, spec: specData, workKey: workKey, redoing: redoing, chunks: owed, progress: progress)
        return try enqueue(record, strategy: strategy, lock: lock, journal: nil) { try store.replan(replan) }
    }
}
