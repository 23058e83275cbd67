import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on replanning part of a stopped job: what stays done, what is replaced, and the bad
/// items, settings and progress that go with it.
extension JobStoreContract {
    static let replans: [JobStoreContract] = [
        JobStoreContract("a replan keeps the done chunks, replaces the rest after the last kept one, and forgets their bad items") { open in
            let store = try open()
            let job = try store.insert(try makeJob(unitsTotal: 4), chunks: makeChunks(4))
            let other = try store.insert(try makeJob(workKey: "work-2"), chunks: makeChunks(2))
            let broken = ItemFailure(item: "assets[1] (a.jpg)", reason: "the file is truncated")
            let missing = ItemFailure(item: "assets[3] (b.jpg)", reason: "no such file")
            var snapshot = job.progress
            for (index, skipped) in [(0, []), (1, [broken]), (3, [])] as [(Int, [ItemFailure])] {
                snapshot = progress(after: snapshot, total: 4, stage: .render, cost: 1)
                try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: index, stage: .render, kind: job.kind,
                                                costSeconds: 1, executor: "cpu", progress: snapshot, skipped: skipped))
            }
            try store.recordBadItems([missing], outcome: .failed, of: job.id, chunk: 2)
            try store.recordBadItems([missing], outcome: .skipped, of: job.id, chunk: nil)
            try store.recordBadItems([broken], outcome: .failed, of: other.id, chunk: 0)

            var replanned = snapshot
            replanned.unitsDone = 2
            replanned.unitsTotal = 5
            let fresh = [PlannedChunk(key: "a", stage: .render, detail: Data("1".utf8), work: 2),
                         PlannedChunk(key: "b", stage: .encode, detail: Data("2".utf8)),
                         PlannedChunk(key: "c", stage: .render)]
            let spec = Data(#"{"crf":18}"#.utf8)
            try open().replan(Replan(jobID: job.id, spec: spec, workKey: "work-3", redoing: [1], chunks: fresh,
                                     progress: replanned))

            let reopened = try open()
            let chunks = try reopened.chunks(of: job.id)
            #expect(chunks.map(\.index) == [0, 3, 4, 5, 6], "chunk 2 (not done) and 1 (redone) go; the new ones follow 3")
            #expect(chunks.map(\.plan) == [makeChunks(4)[0], makeChunks(4)[3]] + fresh)
            #expect(chunks.map(\.isDone) == [true, true, false, false, false])
            #expect(chunks[1].costSeconds == 1 && chunks[1].executor == "cpu", "a kept chunk keeps what it recorded")
            #expect(try reopened.badItems(of: job.id).isEmpty, "the redone, the failed and the package stage's are forgotten")
            #expect(try reopened.badItems(of: other.id).map(\.item) == [broken.item])
            let stored = try #require(try reopened.job(job.id))
            #expect(stored.spec == spec && stored.workKey == "work-3" && stored.progress == replanned)
            #expect(try reopened.unfinishedJob(workKey: "work-3")?.id == job.id)
            #expect(try reopened.chunks(of: other.id).count == 2)
            #expect(try reopened.journal(of: job.id).last?.detail == ["replan": "true", "chunks": "3"])

            // The new chunks checkpoint like any other.
            try reopened.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 5, stage: .encode, kind: job.kind, costSeconds: 2,
                                               executor: nil, progress: replanned, skipped: [missing]))
            #expect(try open().chunks(of: job.id).map(\.isDone) == [true, true, false, true, false])
            #expect(try open().badItems(of: job.id).map(\.chunkIndex) == [5])
        },
        JobStoreContract("a replan of a job that is not there changes nothing") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            let absent = try makeJob()
            #expect(throws: (any Error).self) {
                try store.replan(Replan(jobID: absent.id, spec: Data(), workKey: "w", redoing: [], chunks: makeChunks(1),
                                        progress: absent.progress))
            }
            #expect(try store.chunks(of: job.id).map(\.plan) == makeChunks(2))
            #expect(try store.chunks(of: absent.id).isEmpty)
        },
    ]
}
