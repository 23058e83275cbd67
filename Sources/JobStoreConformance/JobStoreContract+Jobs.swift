import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on jobs and chunks as inserted and read back, and on the journal.
extension JobStoreContract {
    static let jobs: [JobStoreContract] = [
        JobStoreContract("an inserted job reads back with equal fields") { open in
            let store = try open()
            let job = try makeJob()
            let stored = try store.insert(job, chunks: makeChunks(3))
            #expect(stored.queueSequence == 1)

            let read = try #require(try store.job(job.id))
            #expect(abs(read.createdAt.timeIntervalSince(job.createdAt)) < 0.001)
            #expect(abs(read.updatedAt.timeIntervalSince(job.updatedAt)) < 0.001)
            #expect(withDates(of: read, stored) == read)
            #expect(read.kind == "export")
            #expect(try store.jobs().map(\.id) == [job.id])
        },
        JobStoreContract("finished jobs' workspaces are listed by job, and only theirs") { open in
            let store = try open()
            var finished: [(JobID, String)] = []
            for (index, state) in [JobState.completed, .paused, .discarded, .running, .rejected, .failed, .queued].enumerated() {
                var job = try makeJob(workKey: "work-\(index)")
                job.workspace = "/videos/.job-\(index) 'quoted'.mediajob"
                let stored = try store.insert(job, chunks: [])
                try store.transition(stored.id, to: StateChange(state: state), journal: nil)
                if state.isFinished { finished.append((stored.id, job.workspace)) }
            }
            let listed = try store.finishedWorkspaces()
            #expect(listed.map(\.id) == finished.map(\.0), "completed, discarded and rejected, in queue order")
            #expect(listed.map(\.workspace) == finished.map(\.1))
        },
        JobStoreContract("an unknown job reads as nil and has no chunks") { open in
            let store = try open()
            #expect(try store.job(JobID.make()) == nil)
            #expect(try store.chunks(of: JobID.make()).isEmpty)
        },
        JobStoreContract("jobs come back in queue order") { open in
            let store = try open()
            let inserted = try (0..<4).map { _ in try store.insert(try makeJob(), chunks: []) }
            #expect(inserted.map(\.queueSequence) == [1, 2, 3, 4])
            #expect(try store.jobs().map(\.id) == inserted.map(\.id))
        },
        JobStoreContract("chunks read a page at a time come back in order from the index asked for") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(5))
            try store.checkpoint(Checkpoint(jobID: job.id, chunkIndex: 3, stage: .render, kind: job.kind, costSeconds: 1,
                                            executor: "cpu", progress: job.progress))
            #expect(try store.chunks(of: job.id, from: -1, limit: 2).map(\.index) == [0, 1], "the package stage is no chunk")
            #expect(try store.chunks(of: job.id, from: 2, limit: 2).map(\.index) == [2, 3])
            #expect(try store.chunks(of: job.id, from: 3, limit: 1).map(\.isDone) == [true])
            #expect(try store.chunks(of: job.id, from: 4, limit: 2).map(\.plan) == Array(makeChunks(5)[4...]))
            #expect(try store.chunks(of: job.id, from: 5, limit: 2).isEmpty)
            #expect(try store.chunks(of: job.id, from: 0, limit: 0).isEmpty)
            #expect(try store.chunks(of: job.id, from: 0, limit: 10) == store.chunks(of: job.id))
        },
        JobStoreContract("chunks come back in order and pending") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: makeChunks(5))
            let chunks = try store.chunks(of: job.id)
            #expect(chunks.map(\.index) == [0, 1, 2, 3, 4])
            #expect(chunks.map(\.plan) == makeChunks(5))
            #expect(chunks.allSatisfy { !$0.isDone && $0.costSeconds == nil && $0.executor == nil })
        },
        JobStoreContract("appended journal entries keep their detail") { open in
            let store = try open()
            let job = try store.insert(try makeJob(), chunks: [])
            let at = Date(timeIntervalSince1970: 1_700_000_100.25)
            try store.append(JournalEntry(jobID: job.id, at: at, event: .ended, detail: ["outcome": "paused"]))
            let last = try #require(try store.journal(of: job.id).last)
            #expect(last.event == .ended)
            #expect(last.detail == ["outcome": "paused"])
            #expect(abs(last.at.timeIntervalSince(at)) < 0.001)
            #expect(try store.journal(of: JobID.make()).isEmpty)
        },
        JobStoreContract("unfinished job ignores completed, discarded and rejected jobs") { open in
            let store = try open()
            for state in [JobState.completed, .discarded, .rejected] {
                _ = try store.insert(try makeJob(workKey: "same", state: state), chunks: [])
            }
            _ = try store.insert(try makeJob(workKey: "other", state: .queued), chunks: [])
            #expect(try store.unfinishedJob(workKey: "same") == nil)

            let failed = try store.insert(try makeJob(workKey: "same", state: .failed), chunks: [])
            #expect(try store.unfinishedJob(workKey: "same")?.id == failed.id)

            try store.transition(failed.id, to: StateChange(state: .discarded), journal: nil)
            #expect(try store.unfinishedJob(workKey: "same") == nil)
        },
        JobStoreContract("unfinished job finds every state that is not finished") { open in
            let store = try open()
            for state in [JobState.queued, .running, .paused, .interrupted, .failed] {
                let job = try store.insert(try makeJob(workKey: state.rawValue, state: state), chunks: [])
                #expect(try store.unfinishedJob(workKey: state.rawValue)?.id == job.id, "\(state)")
            }
        },
        JobStoreContract("names, paths and text with quotes, semicolons and non-ASCII go through untouched") { open in
            let store = try open()
            let awkward = "O'Brien\"; DROP TABLE jobs; -- ñandú 写真 🎞️ \\ $1 %s"
            var job = try makeJob(workKey: awkward)
            job.destination = "/srv/média/\(awkward).mp4"
            job.workspace = "/srv/média/.\(awkward).mediajob"
            job.message = awkward
            job.spec = try JSONEncoder().encode(["title": awkward])
            let stored = try store.insert(job, chunks: makeChunks(2))
            let read = try #require(try store.job(job.id))
            #expect(withDates(of: read, stored) == read)
            #expect(try store.unfinishedJob(workKey: awkward)?.id == job.id)
            try store.append(JournalEntry(jobID: job.id, event: .ended, detail: ["message": awkward, awkward: "key"]))
            #expect(try store.journal(of: job.id).last?.detail == ["message": awkward, awkward: "key"])
            try store.transition(job.id, to: StateChange(state: .failed, failure: .invalidInput, message: awkward), journal: nil)
            #expect(try store.job(job.id)?.message == awkward)
            #expect(try store.jobs().count == 1)
        },
    ]
}
