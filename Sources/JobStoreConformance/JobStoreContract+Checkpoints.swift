import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on checkpoints: chunks done, progress, learned costs, and what the journal says.
extension JobStoreContract {
    static let checkpoints: [JobStoreContract] = [
        JobStoreContract("a checkpoint marks exactly that chunk done and stores progress and cost") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: makeChunks(4))
            let next = progress(after: job.progress, total: 4, stage: .encode, cost: 2.5)
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind,
                                            costSeconds: 2.5, executor: "cpu", progress: next))

            let chunks = try store.chunks(of: job.id)
            #expect(chunks.map(\.isDone) == [false, true, false, false])
            #expect(chunks[1].costSeconds == 2.5)
            #expect(chunks[1].executor == "cpu")
            #expect(try store.job(job.id)?.progress == next)
            #expect(try store.costHistory(kind: "export") == [.encode: next.costs.estimate(for: .encode)])
            #expect(try store.costHistory(kind: "transcode").isEmpty)
        },
        JobStoreContract("checkpoints recorded together mark each chunk done, journal each, and keep the last progress") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: makeChunks(4))
            let first = progress(after: job.progress, total: 4, stage: .encode, cost: 2)
            let second = progress(after: first, total: 4, stage: .encode, cost: 3)
            try store.checkpoint([
                Checkpoint(jobID: job.id, chunkIndex: 3, stage: .encode, kind: job.kind, costSeconds: 2, executor: "cpu",
                           progress: first),
                Checkpoint(jobID: job.id, chunkIndex: 1, stage: .encode, kind: job.kind, costSeconds: 3, executor: "gpu",
                           progress: second),
            ])

            let chunks = try store.chunks(of: job.id)
            #expect(chunks.map(\.isDone) == [false, true, false, true])
            #expect(chunks.map(\.costSeconds) == [nil, 3, nil, 2])
            #expect(try store.executorCounts(of: job.id) == ["cpu": 1, "gpu": 1])
            #expect(try store.job(job.id)?.progress == second)
            #expect(try store.costHistory(kind: job.kind) == [.encode: second.costs.estimate(for: .encode)])
            let journal = try store.journal(of: job.id)
            #expect(journal.map(\.event) == [.submitted, .progressFirst, .checkpoint, .checkpoint])
            #expect(journal.filter { $0.event == .checkpoint }.map { $0.detail["chunk"] } == ["3", "1"])
        },
        JobStoreContract("executor counts cover the done chunks and forget them after a reset") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: makeChunks(4))
            var snapshot = job.progress
            for (index, executor) in [(0, "cpu"), (1, "gpu"), (3, "cpu")] {
                snapshot = progress(after: snapshot, total: 4, stage: .render, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind,
                                                costSeconds: 1, executor: executor, progress: snapshot))
            }
            #expect(try store.executorCounts(of: job.id) == ["cpu": 2, "gpu": 1])
            try store.resetChunks(of: job.id, progress: job.progress)
            #expect(try store.executorCounts(of: job.id).isEmpty)
        },
        JobStoreContract("the journal records submitted, first progress once, and every checkpoint") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(3))
            var snapshot = job.progress
            for index in 0..<3 {
                snapshot = progress(after: snapshot, total: 3, stage: .render, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind,
                                                costSeconds: 1, executor: nil, progress: snapshot))
            }
            let journal = try store.journal(of: job.id)
            #expect(journal.map(\.event) == [.submitted, .progressFirst, .checkpoint, .checkpoint, .checkpoint])
            #expect(journal.allSatisfy { $0.jobID == job.id })
            #expect(journal[0].detail == ["chunks": "3"])
            #expect(journal.filter { $0.event == .checkpoint }.map { $0.detail["chunk"] } == ["0", "1", "2"])
            #expect(journal.last?.detail["fraction"] == String(format: "%.4f", snapshot.fraction))
        },
        JobStoreContract("first progress is journaled once whichever chunk lands first, and again after a reset") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: makeChunks(4))
            var snapshot = job.progress
            func land(_ index: Int) throws {
                snapshot = progress(after: snapshot, total: 4, stage: .render, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind,
                                                costSeconds: 1, executor: nil, progress: snapshot))
            }
            // Chunks run at once land out of order: the last chunk first, then the first.
            try land(3)
            try land(0)
            try store.resetChunks(of: job.id, progress: job.progress)
            snapshot = job.progress
            try land(2)
            try land(1)
            #expect(try store.journal(of: job.id).map(\.event) == [
                .submitted, .progressFirst, .checkpoint, .checkpoint, .progressFirst, .checkpoint, .checkpoint,
            ])
        },
        JobStoreContract("process-like reopen cycles finish the job chunk by chunk") { open in
            let chunkCount = 6
            let id = try open().insert(try makeJob(unitsTotal: chunkCount), chunks: makeChunks(chunkCount)).id
            var fractions: [Double] = []
            for _ in 0..<chunkCount {
                // A new "process": nothing survives from the last one but what the store keeps.
                let store = try open()
                let job = try #require(try store.job(id))
                let next = try #require(try store.chunks(of: id).first { !$0.isDone })
                let snapshot = progress(after: job.progress, total: chunkCount, stage: next.plan.stage, cost: 1.5)
                try store.checkpoint(Checkpoint(jobID: id, chunkIndex: next.index, stage: next.plan.stage,
                                                kind: job.kind, costSeconds: 1.5, executor: "cpu", progress: snapshot))
                fractions.append(snapshot.fraction)
            }

            let store = try open()
            let job = try #require(try store.job(id))
            #expect(job.progress.unitsDone == chunkCount)
            #expect(job.progress.fraction == CostBar.cap)
            #expect(fractions == fractions.sorted())
            #expect(try store.chunks(of: id).allSatisfy { $0.isDone && $0.costSeconds == 1.5 })
            #expect(try store.journal(of: id).count == 2 + chunkCount)
        },
        JobStoreContract("resetting chunks marks every chunk pending and stores the fresh progress") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 3), chunks: makeChunks(3))
            var snapshot = job.progress
            for index in 0..<2 {
                snapshot = progress(after: snapshot, total: 3, stage: .render, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind,
                                                costSeconds: 1, executor: "gpu", progress: snapshot))
            }
            let fresh = ProgressSnapshot(unitsTotal: 3, costs: snapshot.costs)
            try store.resetChunks(of: job.id, progress: fresh)
            let chunks = try store.chunks(of: job.id)
            #expect(chunks.count == 3)
            #expect(chunks.allSatisfy { !$0.isDone && $0.costSeconds == nil && $0.executor == nil })
            #expect(try store.job(job.id)?.progress == fresh)
        },
        JobStoreContract("a completed transition records every stage estimate in the cost history") { open in
            let store = try open()
            let job = try store.insert(try makeJob(kind: "transcode"), chunks: [])
            var final = job.progress
            final.costs.observe(3, for: .package)
            final.costs.observe(6, for: .encode)
            final.bar.complete()
            try store.transition(job.id, to: StateChange(state: .completed, progress: final), journal: nil)
            #expect(try store.costHistory(kind: "transcode") == final.costs.estimates)
            #expect(try store.costHistory(kind: "transcode").keys.sorted { $0.rawValue < $1.rawValue }
                        == [.encode, .package, .render])
            #expect(try store.job(job.id)?.progress == final)
        },
        JobStoreContract("a paused transition with progress learns no costs") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: [])
            var snapshot = job.progress
            snapshot.costs.observe(9, for: .render)
            try store.transition(job.id, to: StateChange(state: .paused, progress: snapshot), journal: nil)
            #expect(try store.job(job.id)?.progress == snapshot)
            #expect(try store.costHistory(kind: "export").isEmpty)
        },
    ]
}
