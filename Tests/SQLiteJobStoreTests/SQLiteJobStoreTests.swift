import Foundation
import JobEngine
import SQLiteJobStore
import Testing
import TaskContract

struct SQLiteJobStoreTests {
    @Test func insertedJobReadsBackWithEqualFields() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try makeJob()
            let stored = try store.insert(job, chunks: makeChunks(3))
            #expect(stored.queueSequence == 1)

            let read = try #require(try store.job(job.id))
            #expect(abs(read.createdAt.timeIntervalSince(job.createdAt)) < 0.001)
            #expect(abs(read.updatedAt.timeIntervalSince(job.updatedAt)) < 0.001)
            #expect(withDates(of: read, stored) == read)
            #expect(read.kind == "export")
            #expect(try store.jobs().map(\.id) == [job.id])
        }
    }

    @Test func unknownJobReadsAsNil() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            #expect(try store.job(JobID.make()) == nil)
            #expect(try store.chunks(of: JobID.make()).isEmpty)
        }
    }

    @Test func jobsComeBackInQueueOrder() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let inserted = try (0..<4).map { _ in try store.insert(try makeJob(), chunks: []) }
            #expect(inserted.map(\.queueSequence) == [1, 2, 3, 4])
            #expect(try store.jobs().map(\.id) == inserted.map(\.id))
        }
    }

    @Test func chunksComeBackInOrderAndPending() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: makeChunks(5))
            let chunks = try store.chunks(of: job.id)
            #expect(chunks.map(\.index) == [0, 1, 2, 3, 4])
            #expect(chunks.map(\.plan) == makeChunks(5))
            #expect(chunks.allSatisfy { !$0.isDone && $0.costSeconds == nil && $0.executor == nil })
        }
    }

    @Test func checkpointMarksExactlyThatChunkDoneAndStoresProgressAndCost() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
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
        }
    }

    @Test func journalRecordsSubmittedFirstProgressOnceAndEveryCheckpoint() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
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
        }
    }

    @Test func appendedJournalEntriesKeepTheirDetail() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: [])
            let at = Date(timeIntervalSince1970: 1_700_000_100.25)
            try store.append(JournalEntry(jobID: job.id, at: at, event: .ended, detail: ["outcome": "paused"]))
            let last = try #require(try store.journal(of: job.id).last)
            #expect(last.event == .ended)
            #expect(last.detail == ["outcome": "paused"])
            #expect(abs(last.at.timeIntervalSince(at)) < 0.001)
            #expect(try store.journal(of: JobID.make()).isEmpty)
        }
    }

    @Test func processLikeReopenCyclesFinishTheJobChunkByChunk() throws {
        let chunkCount = 6
        try withStorePath { path in
            let id = try SQLiteJobStore(path: path).insert(try makeJob(unitsTotal: chunkCount),
                                                           chunks: makeChunks(chunkCount)).id
            var fractions: [Double] = []
            for _ in 0..<chunkCount {
                // A new "process": nothing survives from the last one but the file.
                let store = try SQLiteJobStore(path: path)
                let job = try #require(try store.job(id))
                let next = try #require(try store.chunks(of: id).first { !$0.isDone })
                let snapshot = progress(after: job.progress, total: chunkCount, stage: next.plan.stage, cost: 1.5)
                try store.checkpoint(Checkpoint(jobID: id, chunkIndex: next.index, stage: next.plan.stage,
                                                kind: job.kind, costSeconds: 1.5, executor: "cpu", progress: snapshot))
                fractions.append(snapshot.fraction)
            }

            let store = try SQLiteJobStore(path: path)
            let job = try #require(try store.job(id))
            #expect(job.progress.unitsDone == chunkCount)
            #expect(job.progress.fraction == CostBar.cap)
            #expect(fractions == fractions.sorted())
            #expect(try store.chunks(of: id).allSatisfy { $0.isDone && $0.costSeconds == 1.5 })
            #expect(try store.journal(of: id).count == 2 + chunkCount)
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func requeueingGivesANewLargerQueueSequence() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let first = try store.insert(try makeJob(), chunks: [])
            let second = try store.insert(try makeJob(), chunks: [])
            try store.transition(first.id, to: StateChange(state: .paused), journal: nil)
            try store.transition(first.id, to: StateChange(state: .queued), journal: nil)
            let requeued = try #require(try store.job(first.id))
            #expect(requeued.state == .queued)
            #expect(requeued.queueSequence > second.queueSequence)
            #expect(try store.jobs().map(\.id) == [second.id, first.id])
        }
    }

    @Test func queueingAJobAlreadyQueuedKeepsItsPlace() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let first = try store.insert(try makeJob(), chunks: [])
            _ = try store.insert(try makeJob(), chunks: [])
            try store.transition(first.id, to: StateChange(state: .queued), journal: nil)
            #expect(try store.job(first.id)?.queueSequence == first.queueSequence)
        }
    }

    @Test func transitionStoresStateFieldsAndKeepsTheOwnerWhenNoneIsGiven() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: [])
            try store.transition(job.id, to: StateChange(state: .running, ownerPID: 99),
                                 journal: JournalEntry(jobID: job.id, event: .started))
            try store.transition(job.id, to: StateChange(state: .failed, failure: .noSpace, message: "disk full"),
                                 journal: nil)
            let failed = try #require(try store.job(job.id))
            #expect(failed.state == .failed)
            #expect(failed.failure == .noSpace)
            #expect(failed.message == "disk full")
            #expect(failed.ownerPID == 99)
            #expect(failed.outcome == .failed(.noSpace))
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted, .started])

            try store.transition(job.id, to: StateChange(state: .rejected, rejection: .duplicate), journal: nil)
            let rejected = try #require(try store.job(job.id))
            #expect(rejected.failure == nil)
            #expect(rejected.message == nil)
            #expect(rejected.rejection == .duplicate)
        }
    }

    @Test func cancelRequestIsSeenByASecondStoreAndClearedByATransition() throws {
        try withStorePath { path in
            let runner = try SQLiteJobStore(path: path)
            let job = try runner.insert(try makeJob(), chunks: [])
            let command = try SQLiteJobStore(path: path)
            #expect(try !runner.isCancelRequested(job.id))

            try command.requestCancel(job.id)
            try command.requestCancel(job.id)
            #expect(try runner.isCancelRequested(job.id))

            try runner.transition(job.id, to: StateChange(state: .running), journal: nil)
            #expect(try command.isCancelRequested(job.id))

            try runner.transition(job.id, to: StateChange(state: .paused, clearsCancel: true), journal: nil)
            #expect(try !command.isCancelRequested(job.id))
            #expect(try !runner.isCancelRequested(job.id))
        }
    }

    @Test func unfinishedJobIgnoresCompletedDiscardedAndRejectedJobs() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            for state in [JobState.completed, .discarded, .rejected] {
                _ = try store.insert(try makeJob(workKey: "same", state: state), chunks: [])
            }
            _ = try store.insert(try makeJob(workKey: "other", state: .queued), chunks: [])
            #expect(try store.unfinishedJob(workKey: "same") == nil)

            let failed = try store.insert(try makeJob(workKey: "same", state: .failed), chunks: [])
            #expect(try store.unfinishedJob(workKey: "same")?.id == failed.id)

            try store.transition(failed.id, to: StateChange(state: .discarded), journal: nil)
            #expect(try store.unfinishedJob(workKey: "same") == nil)
        }
    }

    @Test(arguments: [JobState.queued, .running, .paused, .interrupted, .failed])
    func unfinishedJobFindsEveryStateThatIsNotFinished(_ state: JobState) throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(workKey: "key", state: state), chunks: [])
            #expect(try store.unfinishedJob(workKey: "key")?.id == job.id)
        }
    }

    @Test func resetChunksMarksEveryChunkPendingAndStoresTheFreshProgress() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
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
        }
    }

    @Test func completedTransitionRecordsEveryStageEstimateInCostHistory() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
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
        }
    }

    @Test func pausedTransitionWithProgressLearnsNoCosts() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            let job = try store.insert(try makeJob(), chunks: [])
            var snapshot = job.progress
            snapshot.costs.observe(9, for: .render)
            try store.transition(job.id, to: StateChange(state: .paused, progress: snapshot), journal: nil)
            #expect(try store.job(job.id)?.progress == snapshot)
            #expect(try store.costHistory(kind: "export").isEmpty)
        }
    }

    @Test func freshStoreIsSound() throws {
        try withStorePath { path in
            let store = try SQLiteJobStore(path: path)
            #expect(store.path == path)
            #expect(try store.integrityCheck() == ["ok"])
            #expect(try store.jobs().isEmpty)
        }
    }
}
