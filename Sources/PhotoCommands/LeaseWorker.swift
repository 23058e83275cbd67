import Foundation
import Glibc
import JobEngine
import MediaJobCLI
import PostgresJobStore
import Synchronization
import TaskContract

/// A worker's loop (`mediajob worker`, and the process that submitted a job): its slots claim
/// chunks of any job in a shared store (PostgreSQL across machines, or the state folder's SQLite
/// store on one), or of one job only, run them through the job's kind, renew each lease every
/// third of its length, and commit under the lease's epoch (DESIGN.md §10). A slot hands a finished
/// chunk's commit to the worker's ``LeaseCommitter`` and claims its next chunk at once; the
/// chunk's lease is renewed, and the chunk counts as in flight, until its commit landed.
///
/// A chunk whose lease could not be renewed before it ran out (the database was unreachable, or
/// another worker took the chunk over) is stopped and never committed: the worker fences itself
/// (``Heartbeat``). A cancel announced through the store stops the chunks of that job at their next
/// stop check (``announcements``); renewals report it too. Renewals go through a connection of their own
/// (``renewals``), so a claim or commit waiting on the store never holds a lease's renewal up.
/// A stop (SIGINT/SIGTERM) ends claiming and lets the chunks in flight reach their boundary and their
/// commits land; a second one gives back at once every lease the worker holds (``held``: chunks
/// running, with commits not landed, or claimed and not started yet) and ends the process.
///
/// A stop never waits out the store's reconnection (about 25 s) once it has nothing to hand the
/// store that the lease protocol needs: once no chunk is running after the first stop, the store
/// gets ``storeWaitOnStop`` more, then its reconnections give up
/// (``LeasingJobStore/stopReconnecting(at:)``), so that a commit not landed by then fails, naming
/// its chunk, and the rest of the end (a slot's claim, the journal's pending entries, retiring)
/// fails as promptly; the process ends, status 0, saying it did not reach the store. The second
/// stop gives the store ``storeWaitOnStop`` to take its chunks back, on a thread of its own, and
/// ends the process then whatever that thread is doing, naming the chunks not given back. Neither
/// is needed for safety: a chunk not committed or given back is rescued by another worker once its
/// lease runs out, and a worker not retired drops off the live workers one lease after its last beat. Fencing is unchanged: a chunk in flight whose
/// lease cannot be renewed is still stopped by its heartbeat and its output discarded.
package final class LeaseWorker: Sendable {
    package let scheduler: JobScheduler
    package let store: any LeasingJobStore
    /// Where leases are renewed and the worker announces itself: the same store on a connection of
    /// its own (``StoreLocation/storeOnItsOwnConnection()``), or ``store`` itself where there is none.
    package let renewals: any LeasingJobStore
    /// Lands the chunks' commits, on a connection of the store's own where there is one
    /// (``StoreLocation/storeOnItsOwnConnection()``), so that claims never wait behind a flush.
    package let commits: LeaseCommitter
    /// Who claims, in the journal: host and process.
    package let name: String
    package let slots: Int
    package let lease: Duration
    package let hasGPU: Bool
    /// The only job whose chunks this worker claims (the submitting process's own), or `nil` for any job.
    package let job: JobID?
    package let console: Console
    /// How long an idle slot waits before it looks for a free chunk again, unless the store
    /// announces new work sooner (``idleSlots``).
    package let idleWait = Duration.milliseconds(200)
    /// Where idle slots wait; the listener (``announcements``) wakes them when work is announced.
    private let idleSlots = IdleSlots()
    /// The cancels the listener heard, for the chunks claimed before it and not yet in flight.
    private let heardCancels = HeardCancels()
    /// The job the slots last claimed a chunk of, read once while its record does not change.
    private let claimedJobs = ClaimedJobs()

    /// Hears the cancels and new work announced through the store (PostgreSQL's `LISTEN`), so that a
    /// chunk of a cancelled job stops at its next stop check rather than at its next renewal, and an
    /// idle slot looks for announced work at once; `nil` where the store announces nothing (SQLite)
    /// or no listening connection could be made.
    package let announcements: AnnouncementListener?
    /// How long the listener waits for an announcement before it looks whether the work ended.
    package static let listenInterval = Duration.seconds(1)
    /// How long a stop waits on the store for what is not needed for safety: the first stop's end
    /// once nothing is in flight, the second stop's giving back (``LeaseWorker``).
    package static let storeWaitOnStop = Duration.seconds(2)

    package let stopping = Atomic(false)
    package let workEnded = Atomic(false)
    /// Signalled once ``run()`` has ended as it should.
    package let runEnded = DispatchSemaphore(value: 0)
    /// The chunks this worker holds a lease on, from its claim's answer until they ended: in flight.
    package let held = HeldChunks()
    /// Journal entries written while the store was out of reach (a fenced chunk's stop), appended
    /// before the next claim and as the worker ends.
    private let unjournalled = Mutex<[JournalEntry]>([])

    package init(scheduler: JobScheduler, store: any LeasingJobStore, renewals: (any LeasingJobStore)? = nil,
         commits: (any LeasingJobStore)? = nil, slots: Int, lease: Duration, hasGPU: Bool, job: JobID? = nil,
         announcements: AnnouncementListener? = nil, console: Console) {
        self.scheduler = scheduler
        self.store = store
        self.renewals = renewals ?? store
        self.commits = LeaseCommitter(store: commits ?? store, allowance: CommitAllowance(slots: slots))
        self.name = "\(ProcessInfo.processInfo.hostName):\(getpid())"
        self.slots = slots
        self.lease = lease
        self.hasGPU = hasGPU
        self.job = job
        self.announcements = announcements
        self.console = console
    }

    /// Works until stopped by SIGINT/SIGTERM; returns once every slot reached its boundary.
    package func run() async {
        let signals = StopSignals(first: { [self] in
            stop()
            let (running, committing) = held.counts
            console.err("Stopping: no more claims; finishing \(Plural.of(running, "chunk")) in flight"
                + (committing > 0 ? " and landing \(Plural.of(committing, "commit"))" : "")
                + " (stop again to give them back at once).")
            Thread.detachNewThread { [self] in endWithoutWaitingOnTheStore() }
        }, second: { [self] in stopAtOnce() })
        defer { signals.cancel() }
        announce()
        let heartbeat = Task.detached { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: lease / 3)
                if !Task.isCancelled { announce() }
            }
        }
        console.err("Worker \(name) is taking chunks: \(Plural.of(slots, "slot")), leases of \(lease)"
            + (hasGPU ? ", with a GPU." : "."))
        await work()
        heartbeat.cancel()
        await heartbeat.value
        journalPending()
        if let unreached = retire() {
            console.err("Worker \(name) stopped without reaching the store: \(unreached.personCause); it drops off the "
                + "live workers one lease after its last beat.")
        } else {
            console.err("Worker \(name) stopped.")
        }
        runEnded.signal()
    }

    /// Records this worker as live in the store now (`status`, and `.fail` submissions, read it);
    /// a store that cannot be reached now hears from it at the next beat.
    private func announce() {
        try? renewals.announce(WorkerRecord(name: name, host: ProcessInfo.processInfo.hostName, pid: getpid(), hasGPU: hasGPU,
                                         slots: slots, lease: lease))
    }

    /// Takes this worker off the store's live workers, as it ends.
    /// - Returns: the error that kept the store from taking it, if one did.
    @discardableResult
    package func retire() -> (any Error)? {
        do {
            try store.retire(worker: name)
            return nil
        } catch {
            return error
        }
    }

    /// Runs the slots until ``stop()`` (and, for one job only, until that job is no longer queued
    /// or running); returns once every slot reached its boundary and every commit landed.
    package func work() async {
        if let announcements { Thread.detachNewThread { [self] in hearAnnouncements(on: announcements) } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<slots { group.addTask { await self.runSlot() } }
        }
        commits.finish()
        workEnded.store(true, ordering: .sequentiallyConsistent)
    }

    /// Stops the chunks in flight of every job whose cancel is announced, and wakes the idle slots
    /// when work is, until the work ended. A cancel announced while the listener was reconnecting
    /// is still seen, at the next renewal; work, at the idle slots' next look.
    private func hearAnnouncements(on listener: AnnouncementListener) {
        while !workEnded.load(ordering: .sequentiallyConsistent) {
            do {
                let heard = try listener.announcements(until: .now + Self.listenInterval)
                if !heard.work.isEmpty { idleSlots.wakeAll() }
                // Noted before the chunks in flight are looked at, which a slot's chunk joins before
                // it looks here (``run(_:claimedAt:answeredAt:cancelsHeard:)``): either finds it.
                if !heard.cancels.isEmpty { heardCancels.heard(heard.cancels) }
                for heartbeat in held.heartbeats(ofJobsIn: heard.cancels) { heartbeat.cancelRequested() }
            } catch {
                Thread.sleep(forTimeInterval: Self.listenInterval / .seconds(1)) // the server is away; renewals go on
            }
        }
    }

    /// One slot: claim, run, hand the commit over, until stopped (or until the one job it works on ended).
    private func runSlot() async {
        while !stopping.load(ordering: .sequentiallyConsistent) {
            journalPending()
            let claimed: ChunkLease?
            let announced = idleSlots.generation
            let cancelsHeard = heardCancels.count
            let asked = ContinuousClock.now
            guard held.mayClaim() else { return }
            do {
                claimed = try store.claimChunk(worker: name, lease: lease, job: job, hasGPU: hasGPU)
            } catch {
                let stopped = stopping.load(ordering: .sequentiallyConsistent)
                console.err("Worker \(name): could not claim a chunk: \(error.personCause)" + (stopped ? "." : "; trying again."))
                claimed = nil
            }
            // Held from here on, whatever happens next: a second stop gives it back.
            let holding = held.answered(claimed)
            guard let claimed, let holding else {
                if let job, !isLive(job) { return }
                await idleSlots.wait(upTo: idleWait, unlessAnnouncedSince: announced)
                continue
            }
            guard holding.runs else { return }
            let answeredAt = ContinuousClock.now
            _ = try? FaultPoints.step(.leaseClaimed, operation: "claim", path: claimed.outputName) {}
            await run(claimed, key: holding.key, claimedAt: asked, answeredAt: answeredAt, cancelsHeard: cancelsHeard)
        }
    }

    /// Whether `job` may still have chunks to claim: it is queued or running (or cannot be read now).
    private func isLive(_ job: JobID) -> Bool {
        do {
            return try store.job(job)?.state.isLive ?? false
        } catch {
            return true
        }
    }

    /// Runs one leased chunk (or package stage) and hands its commit over, or gives it back.
    /// - Parameters:
    ///   - claimedAt: when the claim was asked for: the lease began no sooner.
    ///   - answeredAt: when the claim's answer came: the lease began no later.
    ///   - cancelsHeard: how many cancels the listener had heard before the claim was asked for.
    private func run(_ claimed: ChunkLease, key: HeldChunks.Key, claimedAt: ContinuousClock.Instant,
                     answeredAt: ContinuousClock.Instant, cancelsHeard: UInt64) async {
        // The package stage reads the job as it is now: it completes the job from its progress. It
        // reads the job's bad items once, here: every chunk is done, so none is added meanwhile.
        let isPackage = claimed.chunkIndex == ChunkLease.packageIndex
        guard let job = try? isPackage ? store.job(claimed.jobID) : claimedJobs.job(of: claimed, in: store),
              let badItems = try? isPackage ? store.badItems(of: job.id) : [] else {
            giveBack(claimed)
            return held.ended(key)
        }
        let failed = badItems.filter { $0.outcome == .failed && $0.chunkIndex != nil }
        if !failed.isEmpty {
            endWithBadItems(job, failed.map(\.failure), package: claimed)
            return held.ended(key)
        }
        let task = ContinuedTask(request: job.request, progress: job.progress)
        let heartbeat = Heartbeat(store: renewals, lease: claimed, task: task, claimedAt: claimedAt)
        held.started(key, task: task, heartbeat: heartbeat)
        // A cancel asked for since the job's last chunk, which the claim read or the listener heard
        // before this chunk was in flight: the chunk stops at once, is given back, and the job is paused.
        if claimed.cancelRequested || heardCancels.wasHeard(job.id, since: cancelsHeard) { heartbeat.cancelRequested() }
        let result: Result<Checkpoint, any Error>
        do {
            result = .success(isPackage
                ? try await scheduler.publishLeasedJob(job, packageIndex: claimed.chunkIndex, output: claimed.outputName,
                                                       badItems: badItems, task: task)
                : try await scheduler.runLeasedChunk(claimed.chunkIndex, plan: claimed.plan, of: job, output: claimed.outputName,
                                                     task: task, leavesUnreachableInputsToOthers: retriesElsewhere(claimed)))
        } catch {
            result = .failure(error)
        }
        held.workEnded(key)
        if case .success(let checkpoint) = result, !heartbeat.isLost {
            return handOver(claimed, key: key, checkpoint, of: job, heartbeat: heartbeat)
        }
        let stopped = (at: Date(), afterClaim: answeredAt.duration(to: .now))
        defer { held.ended(key) }
        let ending = heartbeat.end()
        // Self-fencing: once the lease is lost the chunk may be another worker's, and nothing of
        // this run counts, not even its failure (the job may be complete by now).
        guard case .failure(let error) = result, ending != .lost, (try? store.renew(claimed)) != .lost else {
            return fenced(claimed, in: job, stoppedAt: stopped.at, afterClaim: stopped.afterClaim)
        }
        discardOutputs(of: claimed, in: job)
        if task.isExpired {
            giveBack(claimed)
            if ending == .cancelRequested { pause(job) }
        } else if let items = Self.itemFailures(in: error) {
            failChunk(claimed, of: job, items)
        } else {
            fail(job, chunk: claimed, error)
        }
    }

    /// Whether an input this worker cannot open leaves `claimed` to another worker, rather than
    /// making the item bad (``failChunk(_:of:_:)``): until its last attempt.
    private func retriesElsewhere(_ claimed: ChunkLease) -> Bool {
        claimed.failures + 1 < ChunkLease.unreachableInputAttempts
    }

    /// The bad items `error` reports, if it reports bad items (``ItemFailure``, ``ItemFailures``).
    private static func itemFailures(in error: any Error) -> [ItemFailure]? {
        switch error {
        case let failure as ItemFailure: [failure]
        case let failures as ItemFailures: failures.failures
        default: nil
        }
    }

    /// A chunk whose items failed: when this machine could not open an input, another worker may
    /// (until ``ChunkLease/unreachableInputAttempts`` leases failed so); otherwise the items are
    /// bad, as they would be in one process, and the job's other chunks go on.
    private func failChunk(_ claimed: ChunkLease, of job: JobRecord, _ items: [ItemFailure]) {
        let host = ProcessInfo.processInfo.hostName
        let what = items.map(\.clause).joined(separator: "; ")
        let failure: ChunkFailure
        if items.contains(where: \.isUnreachableHere), retriesElsewhere(claimed) {
            failure = .elsewhere("on host \(host): \(what)")
            console.err("Worker \(name): chunk \(claimed.chunkIndex) of job \(job.id.short) failed here (\(what)); "
                + "another worker may try it.")
        } else {
            let bad = items.map { item in
                ItemFailure(item: item.item, reason: "\(item.reason.hasSuffix(".") ? String(item.reason.dropLast()) : item.reason) "
                    + "(on host \(host))")
            }
            failure = .badItems(bad, "on host \(host): \(what)")
            console.err("Worker \(name): chunk \(claimed.chunkIndex) of job \(job.id.short) has bad items: \(what).")
        }
        do {
            try store.fail(claimed, failure)
        } catch {
            console.err("Worker \(name): could not record the failure of chunk \(claimed.chunkIndex) of job \(job.id.short): "
                + "\(error.personCause); its lease will run out and another worker will try it.")
        }
    }

    /// The package stage of a job whose chunks all ran, some with bad items: the job ends failed
    /// listing them, as a job run in one process does, and can be resumed once they are fixed.
    private func endWithBadItems(_ job: JobRecord, _ items: [ItemFailure], package claimed: ChunkLease) {
        fail(job, chunk: claimed, ItemFailures(failures: items))
    }

    /// The chunk stopped because its lease was lost (or about to be, with no renewal): its output is
    /// removed at once, without the store, which may be out of reach; the stop is journalled
    /// (`fenced`, stamped when the chunk stopped, with how long after the claim's answer by the
    /// monotonic clock) once the store can be reached again.
    private func fenced(_ claimed: ChunkLease, in job: JobRecord, stoppedAt stopped: Date, afterClaim: Duration) {
        console.err("Worker \(name): lost the lease on chunk \(claimed.chunkIndex) of job \(claimed.jobID.short); "
            + "its work is dropped.")
        discardOutputs(of: claimed, in: job)
        unjournalled.withLock {
            $0.append(JournalEntry(jobID: claimed.jobID, at: stopped, event: .fenced, detail: [
                "chunk": String(claimed.chunkIndex), "epoch": String(claimed.epoch), "worker": name,
                "after_claim": String(format: "%.3f", afterClaim / .seconds(1)),
            ]))
        }
        journalPending()
    }

    /// Appends the entries the store could not take when they were written; those it still cannot
    /// take wait for the next try.
    private func journalPending() {
        let pending = unjournalled.withLock { entries in defer { entries = [] }; return entries }
        for (index, entry) in pending.enumerated() {
            do {
                try store.append(entry)
            } catch {
                console.err("Worker \(name): could not journal the stop of chunk \(entry.detail["chunk"] ?? "?") of job "
                    + "\(entry.jobID.short) yet: \(error.personCause); trying again before the next claim.")
                unjournalled.withLock { $0.append(contentsOf: pending[index...]) }
                return
            }
        }
    }

    /// Removes what the chunk wrote under `claimed`: none of it is the chunk's output.
    package func discardOutputs(of claimed: ChunkLease, in job: JobRecord) {
        do {
            try scheduler.discardLeasedOutputs(claimed.outputName, of: job)
        } catch {
            console.err("Worker \(name): could not remove the unused output \(claimed.outputName) of job \(job.id.short): "
                + "\(error.personMessage).")
        }
    }

    /// Gives the chunk back unfinished, or says it could not: its lease then runs out and another
    /// worker rescues it.
    private func giveBack(_ claimed: ChunkLease) {
        do {
            try store.release(claimed)
        } catch {
            console.err("Worker \(name): could not give back chunk \(claimed.chunkIndex) of job \(claimed.jobID.short): "
                + "\(error.personCause); its lease will run out and another worker will rescue it.")
        }
    }

    /// A cancel asked for from any machine: the job stops here and waits to be resumed.
    private func pause(_ job: JobRecord) {
        guard let current = try? store.job(job.id), current.state == .queued || current.state == .running else { return }
        try? store.transition(job.id, to: StateChange(state: .paused, clearsCancel: true),
                              journal: JournalEntry(jobID: job.id, event: .ended, detail: ["outcome": "paused", "worker": name]))
    }

    /// A chunk (or package stage) that failed fails its job, as it would in one process, and is
    /// given back; the job can be resumed. Only while `chunk`'s lease still holds it, checked in the
    /// same transaction: a worker whose lease was taken over leaves the job to the chunk's new holder.
    private func fail(_ job: JobRecord, chunk: ChunkLease, _ error: any Error) {
        let category = error.failureCategory
        let change = StateChange(state: .failed, failure: category, message: error.personMessage, clearsCancel: true)
        let ended = JournalEntry(jobID: job.id, event: .ended, detail: [
            "outcome": "failed", "category": category.rawValue, "error": String(describing: error),
            "chunk": String(chunk.chunkIndex), "worker": name,
        ])
        let what = "chunk \(chunk.chunkIndex) of job \(job.id.short) failed: \(error.personMessage)"
        do {
            guard try store.endJob(chunk, change, journal: ended) else {
                return console.err("Worker \(name): \(what); its lease was lost meanwhile, so the job is left to the worker "
                    + "that holds the chunk now.")
            }
            console.err("Worker \(name): \(what).")
        } catch {
            console.err("Worker \(name): \(what); the failure could not be recorded (\(error.personCause)): its lease will "
                + "run out and another worker will try it.")
        }
    }
}
