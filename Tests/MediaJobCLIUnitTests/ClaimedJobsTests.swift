import EngineTestKit
import Foundation
import JobEngine
@testable import PhotoCommands
import TaskContract
import Testing

/// A worker reads a job once while its claims report the same version of its record, again when
/// they report another, and always when the store reports none.
struct ClaimedJobsTests {
    private let store = InMemoryJobStore()

    private func insertJob() throws -> JobRecord {
        let identifier = try TaskIdentifier("mediajob.selftest.*").unique()
        let job = JobRecord(
            id: JobID(rawValue: String(identifier.rawValue.split(separator: ".").last!)), kind: "selftest",
            request: try TaskRequest(identifier: identifier, title: "Self-test", subtitle: "run"), spec: Data("{}".utf8), workKey: "work",
            destination: "/tmp/result.json", workspace: "/tmp/.result", overwrite: true, state: .queued,
            progress: ProgressSnapshot(unitsTotal: 2, costs: UnitCostModel(seeds: [:])))
        return try store.insert(job, chunks: [PlannedChunk(key: "c0", stage: .render), PlannedChunk(key: "c1", stage: .render)])
    }

    private func lease(of job: JobRecord, version: Int64?) -> ChunkLease {
        ChunkLease(jobID: job.id, chunkIndex: 0, plan: PlannedChunk(key: "c0", stage: .render), epoch: 1, attempt: 0,
                   worker: "w", duration: .seconds(30), jobVersion: version)
    }

    @Test func theRecordReadAtOneVersionServesEveryClaimAtThatVersion() throws {
        let job = try insertJob()
        let jobs = ClaimedJobs()
        #expect(try jobs.job(of: lease(of: job, version: 7), in: store)?.state == .queued)
        try store.transition(job.id, to: StateChange(state: .running), journal: nil)
        #expect(try jobs.job(of: lease(of: job, version: 7), in: store)?.state == .queued,
                "the same version: the record kept, not read again")
        #expect(try jobs.job(of: lease(of: job, version: 8), in: store)?.state == .running, "another version: read again")
    }

    @Test func withoutAVersionTheJobIsReadEveryTime() throws {
        let job = try insertJob()
        let jobs = ClaimedJobs()
        #expect(try jobs.job(of: lease(of: job, version: nil), in: store)?.state == .queued)
        try store.transition(job.id, to: StateChange(state: .running), journal: nil)
        #expect(try jobs.job(of: lease(of: job, version: nil), in: store)?.state == .running)
    }

    @Test func anotherJobAtTheSameVersionIsReadForItself() throws {
        let first = try insertJob(), second = try insertJob()
        let jobs = ClaimedJobs()
        #expect(try jobs.job(of: lease(of: first, version: 7), in: store)?.id == first.id)
        #expect(try jobs.job(of: lease(of: second, version: 7), in: store)?.id == second.id)
    }
}
