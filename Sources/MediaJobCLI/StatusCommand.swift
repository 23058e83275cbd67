import Foundation
import JobEngine
import GPURender
import TaskContract

/// `mediajob status [JOB]`: shows one job, or every job, once or while it runs.
package enum StatusCommand: Command {
    package static let name = "status"
    package static let synopsis = "[JOB] [--json] [--watch] [--journal] [--state-dir DIR] [--store URL]"
    package static let summary = "Show a job's state and progress, once or until it ends"
    package static let discussion = """
        Shows the job's state (queued, running, paused, interrupted, completed, failed, rejected,
        discarded), its committed progress, its destination, the items it skipped (--skip-bad) or
        failed on with the reason for each, and what to do next. Without JOB, lists every job as
        `mediajob jobs` does.

        --watch follows a queued or running job until it ends, then exits with the code its
        outcome has (0 completed, 1 failed, 75 paused or interrupted). --journal prints the
        job's lifecycle journal, one JSON line per step.

        Examples:
          mediajob status 1a2b3c4d --watch
          mediajob status 1a2b3c4d --json | jq .fraction
        """
    package static let options: [OptionSpec] = [
        .flag("watch", "follow the job until it is no longer queued or running"),
        .flag("journal", "print the job's lifecycle journal as JSON lines"),
        CommonOptions.stateDir, CommonOptions.store, CommonOptions.json,
    ]

    package static func run(_ context: CommandContext) async throws -> Int32 {
        guard !context.arguments.positionals.isEmpty else { return try await JobsCommand.run(context) }
        let scheduler = try context.openScheduler()
        var job = try context.namedJob(in: scheduler)
        if context.arguments.has("journal") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            for entry in try scheduler.store.journal(of: job.id) {
                context.console.out(String(decoding: try encoder.encode(entry), as: UTF8.self))
            }
            return ExitCode.completed
        }
        guard context.arguments.has("watch") else {
            show(job, context, scheduler)
            return ExitCode.completed
        }
        var last: JobRecord?
        while true {
            if job != last { show(job, context, scheduler) }
            last = job
            guard job.state.isLive else { break }
            try await Task.sleep(for: .milliseconds(250))
            job = try scheduler.job(matching: job.id.rawValue)
        }
        return job.outcome.map(ExitCode.of) ?? ExitCode.paused
    }

    private static func show(_ job: JobRecord, _ context: CommandContext, _ scheduler: JobScheduler) {
        let renderedBy = (try? scheduler.store.executorCounts(of: job.id)) ?? [:]
        let leasing = scheduler.store as? any LeasingJobStore
        let ranBy = (try? leasing?.workerCounts(of: job.id)) ?? [:]
        let liveWorkers = (try? leasing?.liveWorkers()) ?? []
        let badItems = (try? scheduler.store.badItems(of: job.id)) ?? []
        // Where --gpu auto renders, by the benchmark recorded here (status never probes the GPU).
        let autoPaths = RenderBenchmarkRecord.load(from: context.stateDirectory)?.summary
        if context.json {
            var object = JobDescription.json(job, renderedBy: renderedBy, ranBy: ranBy)
            object["live_workers"] = liveWorkers.map(JobDescription.json)
            object["bad_items"] = badItems.map(JobDescription.json)
            object["auto_paths"] = autoPaths?.json ?? NSNull()
            context.console.json(object)
        } else {
            context.console.out(JobDescription.detail(job, renderedBy: renderedBy, badItems: badItems, autoPaths: autoPaths?.text,
                                                      ranBy: ranBy, liveWorkers: liveWorkers,
                                                      stateDirArgument: context.stateDirectoryArgument))
        }
    }
}
