import Dispatch
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

/// Clauses on claims: no chunk claimed twice, epochs and output names, what may be claimed by whom,
/// renewal, release, and progress that never moves backwards.
extension LeaseContract {
    static let claims: [LeaseContract] = [
        LeaseContract("workers claiming at once take every chunk exactly once") { open in
            let job = try open().insert(try makeDetachedJob(unitsTotal: 40), chunks: makeChunks(40))
            let stores = try (0..<4).map { _ in try open() }
            let claims = Mutex<[ChunkLease]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: stores.count) { worker in
                do {
                    while let lease = try stores[worker].claim("w\(worker)") {
                        claims.withLock { $0.append(lease) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let taken = claims.withLock { $0 }
            #expect(taken.map(\.chunkIndex).sorted() == Array(0..<40))
            #expect(taken.allSatisfy { $0.jobID == job.id && $0.epoch == 1 && $0.attempt == 0 })
            #expect(try stores[0].journal(of: job.id).filter { $0.event == .claimed }.count == 40)
        },
        LeaseContract("a claim gives the first epoch, names the output by it, runs the job, and a live lease is not taken") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(), chunks: makeChunks(1))
            #expect(try store.job(job.id)?.state == .queued)
            let lease = try #require(try store.claim("w", lease: .seconds(90)))
            #expect(try store.job(job.id)?.state == .running, "a job is running from its first claim")
            #expect(lease.outputName == "c0.1" + (lease.token.map { "-\($0)" } ?? ""),
                    "the key and epoch, and the claim's token where the store gives one")
            #expect(lease.duration == .seconds(90))
            #expect(try open().claim("other") == nil, "a live lease is not rescued")
        },
        LeaseContract("renewing a held lease keeps it and reports a cancel") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(), chunks: makeChunks(1))
            let lease = try #require(try store.claim("w"))
            #expect(try store.renew(lease) == .renewed(cancelRequested: false))
            try open().requestCancel(job.id)
            #expect(try store.renew(lease) == .renewed(cancelRequested: true))
        },
        LeaseContract("a released chunk is claimed again at once without counting as an attempt") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(), chunks: makeChunks(1))
            let first = try #require(try store.claim("stopping"))
            #expect(try store.release(first))
            #expect(try !store.release(first), "released once")
            let again = try #require(try store.claim("next"))
            #expect(again.epoch == 2)
            #expect(again.attempt == 0)
            #expect(try store.renew(first) == .lost)
            #expect(try store.journal(of: job.id).map(\.event) == [.submitted, .claimed, .released, .claimed])
        },
        LeaseContract("chunks of a job that is not queued or running are not claimed") { open in
            let store = try open()
            for state in [JobState.paused, .interrupted, .failed, .completed, .discarded, .rejected] {
                _ = try store.insert(try makeDetachedJob(state: state), chunks: makeChunks(2))
            }
            #expect(try store.claim("w") == nil)
            let running = try store.insert(try makeDetachedJob(state: .running), chunks: makeChunks(1))
            #expect(try store.claim("w")?.jobID == running.id)
        },
        LeaseContract("a job that requires a GPU is claimed only by a worker with one") { open in
            let store = try open()
            var gpuJob = try makeDetachedJob(state: .running)
            gpuJob.request = try TaskRequest(identifier: gpuJob.request.identifier, title: "Exporting Holiday",
                                             subtitle: "render", requiredResources: .gpu)
            _ = try store.insert(gpuJob, chunks: makeChunks(1))
            #expect(try store.claim("cpu-only") == nil)
            let anyJob = try store.insert(try makeDetachedJob(state: .running), chunks: makeChunks(1))
            #expect(try store.claim("cpu-only")?.jobID == anyJob.id)
            #expect(try store.claim("with-gpu", hasGPU: true)?.jobID == gpuJob.id)
        },
        LeaseContract("a commit never moves the bar backwards") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 2), chunks: makeChunks(2))
            let first = try #require(try store.claim("a"))
            let second = try #require(try store.claim("b"))
            let early = progress(after: job.progress, total: 2, stage: .render, cost: 1)
            let late = progress(after: early, total: 2, stage: .encode, cost: 1)
            #expect(try store.commit(second, checkpoint: checkpoint(second, of: job, late)) == .committed)
            #expect(try store.commit(first, checkpoint: checkpoint(first, of: job, early)) == .committed)
            #expect(try store.job(job.id)?.progress == late)
            let read = try open().progressAndOwedWork(of: job.id)
            #expect(read.progress == late, "read with the owed work, the furthest progress committed")
            #expect(read.owed == OwedWork())
            #expect(throws: JobStoreError.noSuchJob(JobID(rawValue: "missing"))) {
                try open().progressAndOwedWork(of: JobID(rawValue: "missing"))
            }
        },
        LeaseContract("a commit takes its chunk's work out of the owed work once; a release leaves it owed") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 2), chunks: makeChunks(2))
            let render = try #require(try store.claim("a"))
            let encode = try #require(try store.claim("b"))
            let snapshot = progress(after: job.progress, total: 2, stage: .render, cost: 1)
            #expect(try store.commit(render, checkpoint: checkpoint(render, of: job, snapshot)) == .committed)
            #expect(try store.commit(render, checkpoint: checkpoint(render, of: job, snapshot)) == .committed)
            #expect(try store.release(encode))
            #expect(try open().owedWork(of: job.id) == OwedWork([.encode: .init(work: 1, chunks: 1)]))
            let read = try open().progressAndOwedWork(of: job.id)
            #expect(read.owed == OwedWork([.encode: .init(work: 1, chunks: 1)]))
            #expect(read.progress == snapshot)
        },
        LeaseContract("a claim reads the job's cancel flag, and any version of the job it reports moves with the job's record") { open in
            let store = try open()
            let job = try store.insert(try makeDetachedJob(unitsTotal: 5), chunks: makeChunks(5))
            let first = try #require(try store.claim("w"))
            let second = try #require(try store.claim("w"))
            let third = try #require(try store.claim("w"))
            #expect(!first.cancelRequested && !third.cancelRequested)
            #expect(second.jobVersion == third.jobVersion, "nothing changed the job's record between the claims")
            #expect(first.jobVersion == nil || first.jobVersion != second.jobVersion,
                    "the first claim made the queued job running")
            try open().requestCancel(job.id)
            let cancelled = try #require(try store.claim("w"))
            #expect(cancelled.cancelRequested)
            try store.replan(Replan(jobID: job.id, spec: Data(#"{"replanned":true}"#.utf8), workKey: "replanned", redoing: [],
                                    chunks: makeChunks(1), progress: job.progress))
            let replanned = try #require(try store.claim("w"))
            #expect(replanned.jobVersion == nil || replanned.jobVersion != cancelled.jobVersion,
                    "a replan changes the job's record")
        },
        LeaseContract("workers at once leave a journal with one commit per chunk") { open in
            let job = try open().insert(try makeDetachedJob(state: .running, unitsTotal: 30), chunks: makeChunks(30))
            let stores = try (0..<4).map { _ in try open() }
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: stores.count) { worker in
                do {
                    let store = stores[worker]
                    while let lease = try store.claim("w\(worker)") {
                        let stored = try #require(try store.job(job.id))
                        let snapshot = progress(after: stored.progress, total: 30, stage: lease.plan.stage, cost: 1)
                        _ = try store.commit(lease, checkpoint: checkpoint(lease, of: job, snapshot))
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try stores[0].job(job.id)?.state == .completed)
            let check = LeaseJournalCheck(try stores[0].journal(of: job.id), chunkKeys: leaseKeys(30))
            #expect(check.violations == [])
            #expect(check.refusedCommits == 0)
        },
        LeaseContract("chunks are claimed longest expected first, ties in index order, whatever order workers commit in") { open in
            let store = try open()
            var submitted = try makeDetachedJob(unitsTotal: 6)
            submitted.progress.costs = UnitCostModel(seeds: [.render: 1, .encode: 4])
            // Expected seconds by index: 2, 4, 8, 2, 4, 1 (the work times its stage's cost).
            let chunks = [(Stage.render, 2.0), (.encode, 1), (.render, 8), (.render, 2), (.encode, 1), (.render, 1)]
                .enumerated().map { PlannedChunk(key: "c\($0.offset)", stage: $0.element.0, work: $0.element.1) }
            let job = try store.insert(submitted, chunks: chunks)
            let first = try #require(try store.claim("a"))
            let second = try #require(try store.claim("b"))
            #expect(try store.commit(second, checkpoint: checkpoint(second, of: job, job.progress)) == .committed)
            var claimed = [first.chunkIndex, second.chunkIndex]
            while let lease = try store.claim("b") { claimed.append(lease.chunkIndex) }
            #expect(claimed == [2, 1, 4, 0, 3, 5], "and no package stage while chunk 2 is held")
            let journalled = try store.journal(of: job.id).filter { $0.event == .claimed }.compactMap { $0.detail["chunk"] }
            #expect(journalled == ["2", "1", "4", "0", "3", "5"], "the journal's claims, in the order they were made")
        },
    ]
}
