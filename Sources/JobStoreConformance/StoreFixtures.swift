import Foundation
import JobEngine
import TaskContract

/// A job as a scheduler would submit it, with a creation time that is exact in binary. Its render
/// and encode work cost the same, so that claims take ``makeChunks(_:)``'s chunks in index order
/// (``ClaimOrder`` ranks them by expected cost).
public func makeJob(kind: String = "export", workKey: String = "work-1", state: JobState = .queued,
                    unitsTotal: Int = 3) throws -> JobRecord {
    let identifier = try TaskIdentifier("mediajob.\(kind).*").unique()
    let request = try TaskRequest(identifier: identifier, title: "Exporting Holiday", subtitle: "render")
    var job = JobRecord(
        id: JobID(rawValue: String(identifier.rawValue.split(separator: ".").last!)), kind: kind,
        request: request, spec: Data(#"{"crf":20}"#.utf8), workKey: workKey, destination: "/videos/holiday.mp4",
        workspace: "/videos/.holiday.mediajob", overwrite: true, state: state,
        progress: ProgressSnapshot(unitsTotal: unitsTotal, costs: UnitCostModel(seeds: [.render: 3, .encode: 3])),
        createdAt: Date(timeIntervalSince1970: 1_700_000_000.5))
    job.message = "waiting for capacity"
    job.ownerPID = 4242
    return job
}

/// Planned chunks `c0`, `c1`, … alternating render and encode stages.
public func makeChunks(_ count: Int) -> [PlannedChunk] {
    (0..<count).map { index in
        PlannedChunk(key: "c\(index)", stage: index.isMultiple(of: 2) ? .render : .encode,
                     detail: Data(#"{"start":\#(index * 10)}"#.utf8))
    }
}

/// The progress a runner would store after finishing one more of `total` chunks, each costing
/// `cost`, starting from `previous`.
public func progress(after previous: ProgressSnapshot, total: Int, stage: Stage, cost: Double) -> ProgressSnapshot {
    var next = previous
    next.costs.observe(cost, for: stage)
    next.bar.advance(done: cost, remaining: Double(total - next.unitsDone - 1) * cost)
    next.unitsDone += 1
    next.stage = stage
    next.workedSeconds += cost
    return next
}

/// `record` with its dates replaced by `other`'s, to compare every other field exactly.
public func withDates(of other: JobRecord, _ record: JobRecord) -> JobRecord {
    var record = record
    record.createdAt = other.createdAt
    record.updatedAt = other.updatedAt
    return record
}
