import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on the owed work (``JobStore/owedWork(of:)``): the chunks not done, summed by stage, as
/// chunks land, are reset, planned again and removed.
extension JobStoreContract {
    /// Render chunks of 2 and 0.5 units, encode chunks of 3 and 1 (the default).
    static let mixedChunks = [
        PlannedChunk(key: "a", stage: .render, work: 2), PlannedChunk(key: "b", stage: .encode, work: 3),
        PlannedChunk(key: "c", stage: .render, work: 0.5), PlannedChunk(key: "d", stage: .encode),
    ]

    static let owedWork: [JobStoreContract] = [
        JobStoreContract("the owed work sums the chunks not done by stage, without the package stage, as they land") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: mixedChunks)
            let other = try store.insert(try makeJob(workKey: "work-2"), chunks: makeChunks(1))
            #expect(try store.owedWork(of: job.id) == OwedWork([.render: .init(work: 2.5, chunks: 2),
                                                                .encode: .init(work: 4, chunks: 2)]))
            var snapshot = job.progress
            func land(_ index: Int) throws {
                snapshot = progress(after: snapshot, total: 4, stage: mixedChunks[index].stage, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: mixedChunks[index].stage,
                                                kind: job.kind, costSeconds: 1, executor: "cpu", progress: snapshot))
            }
            try land(0)
            #expect(try open().owedWork(of: job.id) == OwedWork([.render: .init(work: 0.5, chunks: 1),
                                                                 .encode: .init(work: 4, chunks: 2)]))
            try land(2)
            try land(2)
            #expect(try open().owedWork(of: job.id) == OwedWork([.encode: .init(work: 4, chunks: 2)]),
                    "a stage with nothing left is gone, and a chunk checkpointed twice counts once")
            try land(1)
            try land(3)
            #expect(try open().owedWork(of: job.id) == OwedWork())
            #expect(try open().owedWork(of: other.id) == OwedWork([.render: .init(work: 1, chunks: 1)]))
        },
        JobStoreContract("a reset owes every chunk again, a replan owes its new chunks, and a removed job owes nothing") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: mixedChunks)
            let done = progress(after: job.progress, total: 4, stage: .encode, cost: 1)
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: done))
            try store.resetChunks(of: job.id, progress: job.progress)
            #expect(try open().owedWork(of: job.id) == OwedWork([.render: .init(work: 2.5, chunks: 2),
                                                                 .encode: .init(work: 4, chunks: 2)]))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: done))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 3, stage: .encode, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: done))
            // Chunks 0 and 2, not done, go; chunk 1, done, is redone; chunk 3 stays done.
            let fresh = [PlannedChunk(key: "e", stage: .render, work: 4), PlannedChunk(key: "f", stage: .encode, work: 1.5)]
            try store.replan(Replan(jobID: job.id, spec: job.spec, workKey: job.workKey, redoing: [1], chunks: fresh,
                                    progress: done))
            #expect(try open().owedWork(of: job.id) == OwedWork([.render: .init(work: 4, chunks: 1),
                                                                 .encode: .init(work: 1.5, chunks: 1)]))
            try store.remove(job.id)
            #expect(try open().owedWork(of: job.id) == OwedWork())
        },
    ]
}
