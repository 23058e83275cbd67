import Foundation
import JobEngine
import MediaJobCLI
import PhotoJobs
import PostgresJobStore
import TaskContract

/// Runs a job this process owns in the foreground: says what it will produce, shows progress,
/// turns Ctrl-C into a pause, and ends with the outcome, what to do next, and its exit code.
package struct JobSession {
    package let context: CommandContext
    package let scheduler: JobScheduler
    /// The program's job kinds, asked whether another program goes on with a job that pauses
    /// (``ProgramJobKinds/handOver(_:context:)``); `nil` keeps every job here.
    package var kinds: (any ProgramJobKinds)?

    package init(context: CommandContext, scheduler: JobScheduler, kinds: (any ProgramJobKinds)? = nil) {
        (self.context, self.scheduler, self.kinds) = (context, scheduler, kinds)
    }

    /// Whether a job submitted here is stored with no owning process, for workers to run: with
    /// `--detach`, and always with a PostgreSQL store, where this process works on the job as one
    /// of them (so that the job outlives it, and no state folder takes it for interrupted).
    package var submitsForWorkers: Bool {
        context.arguments.has("detach") || scheduler.store is PostgresJobStore
    }

    /// Whether this process works on the job it submits (without `--detach`): it then counts as a
    /// live worker for a `.fail` submission.
    package var worksOnIt: Bool { !context.arguments.has("detach") }

    /// Submits `spec` as a new job of `kind` (its title `title`) and runs it in the foreground.
    /// With `gpu`, the job requires the GPU when that is `on`, and, when `announcing`, says where
    /// pictures render (with `--verbose`) once planning has probed the GPU.
    package func submit<Spec: Codable & Sendable>(_ spec: Spec, kind: String, title: String, gpu: GPUPreference? = nil,
                                          announcing: Bool = true) async throws -> Int32 {
        let request = try TaskRequest(identifier: MediaJobKinds.identifier(kind), title: title, subtitle: "starting",
                                      strategy: try context.strategy(), requiredResources: gpu?.requiredResources ?? [])
        return try await run {
            let submission = try scheduler.submit(request, spec: spec, detached: submitsForWorkers, submitterWorks: worksOnIt)
            if let gpu, announcing { context.announceRendering(gpu) }
            return submission
        }
    }

    /// Submits work and handles the outcome: runs a new job, reports that the same work already
    /// exists, or, with `--json`, reports a rejection as the last event before rethrowing it.
    /// Ctrl-C is a stop from here on: while the job is planned, and then while it runs.
    package func run(submitting submit: () throws -> Submission) async throws -> Int32 {
        let detach = context.arguments.has("detach")
        let lease = try context.leaseDuration()
        let stop = SessionStop(context: context, scheduler: scheduler)
        defer { stop.cancel() }
        let submission: Submission
        do {
            submission = try submit()
        } catch SchedulerError.rejected(let id, let rejection) {
            if context.json {
                context.console.json(["event": "rejected", "job_id": id.rawValue, "outcome": "rejected",
                                      "reason": rejection.reason.rawValue, "message": ErrorAdvice.sentence(for: rejection)])
            }
            throw SchedulerError.rejected(id, rejection)
        }
        switch submission {
        case .created(let handle) where detach:
            if context.json {
                context.console.json(["event": "submitted", "job_id": handle.id.rawValue, "state": handle.record.state.rawValue])
            } else {
                context.console.out(handle.id.rawValue)
            }
            context.console.err("Job \(handle.id.short) is stored; the workers sharing the store run it (mediajob worker).")
            return ExitCode.completed
        case .created(let handle):
            if let store = scheduler.store as? PostgresJobStore {
                return await LeasedJobSession(session: self, store: store, lease: lease).run(handle, stop: stop)
            }
            return await run(handle, verb: "Starting", stop: stop)
        case .existing(let job):
            let advice = JobDescription.nextStep(job, stateDirArgument: context.stateDirectoryArgument) ?? ""
            if context.json {
                context.console.json(["event": "rejected", "job_id": job.id.rawValue, "outcome": "rejected",
                                      "reason": RejectionReason.duplicate.rawValue, "state": job.state.rawValue])
            }
            context.console.error("the same work is already job \(job.id.short) (\(job.state.rawValue))", "Next: \(advice)")
            return ExitCode.rejected
        }
    }

    /// Runs `handle` to an outcome and returns the exit code.
    package func run(_ handle: JobHandle, verb: String) async -> Int32 {
        let stop = SessionStop(context: context, scheduler: scheduler)
        defer { stop.cancel() }
        return await run(handle, verb: verb, stop: stop)
    }

    private func run(_ handle: JobHandle, verb: String, stop: SessionStop) async -> Int32 {
        let job = handle.record
        announce(handle, verb: verb)
        let reporter = progressReporter(for: handle)
        stop.attach(handle, reporter: reporter)
        let outcome = await scheduler.run(handle)
        stop.cancel()
        reporter.finishLine()
        if let code = handedOver(job, outcome: outcome, stop: stop) { return code }
        report(outcome, of: handle, resumeHint: "mediajob resume \(job.id.short)\(context.stateDirectoryArgument)")
        return ExitCode.of(outcome)
    }

    /// For `job`, which ended `outcome` here: the exit code of the program that goes on with it
    /// (``ProgramJobKinds/handOver(_:context:)``), when it paused for an input that program
    /// judges; `nil` when it stays here. A job paused by a stop the person asked for (Ctrl-C,
    /// SIGTERM) stays paused, even if its last chunk also met such an input.
    package func handedOver(_ job: JobRecord, outcome: TaskOutcome, stop: SessionStop) -> Int32? {
        guard outcome == .paused, !stop.wasAsked, let kinds else { return nil }
        do {
            return try kinds.handOver(job, context: context)
        } catch {
            context.console.error(ErrorAdvice.sentence(for: error, stateDirArgument: context.stateDirectoryArgument))
            return nil
        }
    }

    /// The reporter of `handle`'s progress, in the style the console and `--json` ask for, attached to its task.
    package func progressReporter(for handle: JobHandle) -> ProgressReporter {
        let console = context.console
        let reporter = ProgressReporter(style: context.json ? .json : (console.isTerminal ? .terminal : .plain),
                                        console: console, jobID: handle.id.rawValue)
        reporter.attach(to: handle.task)
        return reporter
    }

    /// Says which job starts, what it makes, and how long it should take (an event with `--json`).
    package func announce(_ handle: JobHandle, verb: String) {
        let job = handle.record
        let estimate = (try? scheduler.estimatedSeconds(for: handle.id)).map { ProgressReporter.duration($0) } ?? "unknown"
        if context.json {
            context.console.json([
                "event": "submitted", "job_id": job.id.rawValue, "identifier": job.request.identifier.rawValue,
                "kind": job.kind, "title": job.request.title, "destination": job.destination,
                "units_total": job.progress.unitsTotal, "fraction": job.progress.fraction,
            ])
        } else {
            context.console.err("\(verb) job \(job.id.short): \(job.request.title)\n  output: \(job.destination)\n"
                                + "  \(job.progress.unitsTotal - job.progress.unitsDone) of \(Plural.of(job.progress.unitsTotal, "unit")) to do, "
                                + "about \(estimate)")
        }
    }

    /// Says how the job ended and what to do next (an event with `--json`). A process that stopped
    /// its work on a job in a store it could not reach (`pausedInStore` false) says the store still
    /// has the job running, rather than that it paused it.
    package func report(_ outcome: TaskOutcome, of handle: JobHandle, resumeHint: String, pausedInStore: Bool = true) {
        let console = context.console
        let job = (try? scheduler.store.job(handle.id)) ?? handle.record
        if context.json {
            var event: [String: Any] = ["event": outcome.name, "job_id": job.id.rawValue, "outcome": outcome.name,
                                        "fraction": job.progress.fraction, "destination": job.destination]
            if let failure = job.failure { event["category"] = failure.rawValue }
            if let message = job.message { event["message"] = message }
            console.json(event)
        }
        let percent = JobDescription.percent(job.progress.fraction)
        switch outcome {
        case .completed:
            console.err("Done: \(job.destination)")
        case .paused where !pausedInStore:
            console.err("Stopped at \(JobDescription.percent(handle.task.progress.fraction)) here; the job is still running in "
                        + "the store, and other workers may go on with it. Once the store is back, stop it with: mediajob cancel "
                        + "\(job.id.short)\(context.stateDirectoryArgument)")
        case .paused:
            console.err("Paused at \(percent)\(job.message.map { ": \($0)" } ?? ""). Resume with: \(resumeHint)")
        case .failed(let category):
            console.error(job.message ?? category.rawValue)
            if category == .invalidInput { console.err("To complete without the bad items, run the command again with --skip-bad.") }
            console.err("Failed at \(percent); finished chunks are kept. Resume with: \(resumeHint)\n"
                        + "After changing the project or its files, redo it with: mediajob restart \(job.id.short)"
                        + "\(context.stateDirectoryArgument)   (or discard it: mediajob discard \(job.id.short)\(context.stateDirectoryArgument))")
        case .rejected, .discarded:
            console.error(job.message ?? outcome.description)
        }
    }
}
