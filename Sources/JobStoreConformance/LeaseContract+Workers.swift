import Foundation
import JobEngine
import Testing

/// Clauses on live workers (``WorkerRecord``): announced, live while their heartbeat is less than
/// their lease old by the store's clock, gone at once when retired.
extension LeaseContract {
    static let workers: [LeaseContract] = [
        LeaseContract("an announced worker is live until retired, or until its lease passes without a heartbeat") { open in
            let store = try open()
            #expect(try store.liveWorkers() == [])
            let cpu = WorkerRecord(name: "h1:10", host: "h1", pid: 10, hasGPU: false, slots: 2, lease: .seconds(60))
            var gpu = WorkerRecord(name: "h2:20", host: "h2", pid: 20, hasGPU: true, slots: 1, lease: .seconds(60))
            try store.announce(cpu)
            try open().announce(gpu)
            #expect(try store.liveWorkers() == [cpu, gpu])
            try store.announce(cpu)
            #expect(try store.liveWorkers() == [cpu, gpu], "a heartbeat adds no second row")
            try store.retire(worker: cpu.name)
            #expect(try store.liveWorkers() == [gpu])

            gpu.lease = .milliseconds(200)
            try store.announce(gpu)
            let deadline = ContinuousClock.now + .seconds(30)
            while try !store.liveWorkers().isEmpty {
                guard ContinuousClock.now < deadline else {
                    throw LeaseWaitTimedOut(what: "the store's clock passes the silent worker's lease")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            try store.announce(gpu)
            #expect(try store.liveWorkers().map(\.name) == [gpu.name], "a heartbeat makes it live again")
        },
        LeaseContract("each committed chunk counts for the worker whose lease committed it, until the chunks are reset") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(), chunks: makeChunks(3))
            #expect(try store.workerCounts(of: job.id) == [:])
            let first = try #require(try store.claim("h1:10"))
            let second = try #require(try open().claim("h2:20"))
            let third = try #require(try store.claim("h1:10"))
            for lease in [first, second, third] {
                #expect(try store.commit(lease, checkpoint: checkpoint(lease, of: job, job.progress)) == .committed)
            }
            #expect(try open().workerCounts(of: job.id) == ["h1:10": 2, "h2:20": 1])
            try store.resetChunks(of: job.id, progress: job.progress)
            #expect(try store.workerCounts(of: job.id) == [:], "a restart forgets who ran what")
        },
    ]
}
