import Foundation
import JobEngine
import Testing

/// Clauses on bad items: skipped ones come with their chunk's checkpoint, failed ones replace what
/// the chunk held before, the package stage has its own, and a restart forgets them all.
extension JobStoreContract {
    private static let corrupt = ItemFailure(item: "assets[1] (a.jpg)", reason: "the file is truncated")
    private static let missing = ItemFailure(item: "assets[2] (b.mp4)", reason: "no such file")

    private static func checkpoint(_ job: JobRecord, chunk: Int, skipped: [ItemFailure]) -> Checkpoint {
        Checkpoint(jobID: job.id, chunkIndex: chunk, stage: .render, kind: job.kind, costSeconds: 1, executor: "cpu",
                   progress: progress(after: job.progress, total: 3, stage: .render, cost: 1), skipped: skipped)
    }

    static let badItems: [JobStoreContract] = [
        JobStoreContract("items a chunk skipped come with its checkpoint, the package stage's after every chunk's") { open in
            let job = try open().insert(try makeJob(), chunks: makeChunks(3))
            try open().recordBadItems([missing], outcome: .skipped, of: job.id, chunk: nil)
            try open().checkpoint(checkpoint(job, chunk: 1, skipped: [corrupt, missing]))

            let store = try open()
            #expect(try store.badItems(of: job.id) == [
                BadItem(item: corrupt.item, reason: corrupt.reason, outcome: .skipped, chunkIndex: 1),
                BadItem(item: missing.item, reason: missing.reason, outcome: .skipped, chunkIndex: 1),
                BadItem(item: missing.item, reason: missing.reason, outcome: .skipped, chunkIndex: nil),
            ])
            #expect(try store.chunks(of: job.id).map(\.isDone) == [false, true, false])
        },
        JobStoreContract("a chunk that failed and then ran holds only what it skipped at last") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(3))
            try store.recordBadItems([corrupt, missing], outcome: .failed, of: job.id, chunk: 2)
            try store.recordBadItems([corrupt], outcome: .failed, of: job.id, chunk: 0)
            #expect(try store.badItems(of: job.id).map(\.chunkIndex) == [0, 2, 2])
            #expect(try store.badItems(of: job.id).allSatisfy { $0.outcome == .failed })

            try store.checkpoint(checkpoint(job, chunk: 2, skipped: [missing]))
            #expect(try store.badItems(of: job.id) == [
                BadItem(item: corrupt.item, reason: corrupt.reason, outcome: .failed, chunkIndex: 0),
                BadItem(item: missing.item, reason: missing.reason, outcome: .skipped, chunkIndex: 2),
            ])
            try store.checkpoint(checkpoint(job, chunk: 0, skipped: []))
            #expect(try store.badItems(of: job.id).map(\.chunkIndex) == [2])
        },
        JobStoreContract("a restart forgets the bad items, and other jobs keep theirs") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            let other = try store.insert(try makeJob(workKey: "work-2"), chunks: makeChunks(2))
            try store.checkpoint(checkpoint(job, chunk: 0, skipped: [corrupt]))
            try store.recordBadItems([missing], outcome: .failed, of: job.id, chunk: nil)
            try store.recordBadItems([missing], outcome: .failed, of: other.id, chunk: 1)
            try store.resetChunks(of: job.id, progress: job.progress)
            #expect(try store.badItems(of: job.id).isEmpty)
            #expect(try store.badItems(of: other.id).map(\.item) == [missing.item])
        },
    ]
}
