import Foundation
import JobEngine
import TaskContract
import Testing

/// Clauses on state changes, the queue, and cancel requests between stores.
extension JobStoreContract {
    static let states: [JobStoreContract] = [
        JobStoreContract("requeueing gives a new, larger queue sequence") { open in
            let store = try open()
            let first = try store.insert(try makeJob(), chunks: [])
            let second = try store.insert(try makeJob(), chunks: [])
            try store.transition(first.id, to: StateChange(state: .paused), journal: nil)
            try store.transition(first.id, to: StateChange(state: .queued), journal: nil)
            let requeued = try #require(try store.job(first.id))
            #expect(requeued.state == .queued)
            #expect(requeued.queueSequence > second.queueSequence)
            #expect(try store.jobs().map(\.id) == [second.id, first.id])
        },
        JobStoreContract("queueing a job already queued keeps its place") { open in
            let store = try open()
            let first = try store.insert(try makeJob(), chunks: [])
            _ = try store.insert(try makeJob(), chunks: [])
            try store.transition(first.id, to: StateChange(state: .queued), journal: nil)
            #expect(try store.job(first.id)?.queueSequence == first.queueSequence)
        },
        JobStoreContract("a transition stores the state's fields and keeps the owner when none is given") { open in
            let store = try open()
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
        },
        JobStoreContract("a transition of a job that is not there throws") { open in
            let store = try open()
            #expect(throws: (any Error).self) {
                try store.transition(JobID.make(), to: StateChange(state: .paused), journal: nil)
            }
        },
        JobStoreContract("removing a job deletes it with its chunks, journal, bad items and cancel request, and nothing else") { open in
            let store = try open()
            let gone = try store.insert(try makeJob(workKey: "gone"), chunks: makeChunks(2))
            let kept = try store.insert(try makeJob(workKey: "kept"), chunks: makeChunks(2))
            try store.requestCancel(gone.id)
            try store.recordBadItems([ItemFailure(item: "a.jpg", reason: "is truncated")], outcome: .failed, of: gone.id, chunk: 0)
            try store.remove(gone.id)
            #expect(try store.job(gone.id) == nil)
            #expect(try store.chunks(of: gone.id).isEmpty)
            #expect(try store.journal(of: gone.id).isEmpty)
            #expect(try !store.isCancelRequested(gone.id))
            #expect(try store.badItems(of: gone.id).isEmpty)
            #expect(try store.jobs().map(\.id) == [kept.id])
            #expect(try store.chunks(of: kept.id).count == 2)
            #expect(try store.journal(of: kept.id).map(\.event) == [.submitted])
            try store.remove(gone.id)
        },
        JobStoreContract("a cancel request is seen by a second store and cleared by a transition") { open in
            let runner = try open()
            let job = try runner.insert(try makeJob(), chunks: [])
            let command = try open()
            #expect(try !runner.isCancelRequested(job.id))

            try command.requestCancel(job.id)
            try command.requestCancel(job.id)
            #expect(try runner.isCancelRequested(job.id))

            try runner.transition(job.id, to: StateChange(state: .running), journal: nil)
            #expect(try command.isCancelRequested(job.id))

            try runner.transition(job.id, to: StateChange(state: .paused, clearsCancel: true), journal: nil)
            #expect(try !command.isCancelRequested(job.id))
            #expect(try !runner.isCancelRequested(job.id))
        },
    ]
}
