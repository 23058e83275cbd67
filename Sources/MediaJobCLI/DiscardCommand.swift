import JobEngine

/// `mediajob discard JOB`: throws away a job's partial work.
package enum DiscardCommand: Command {
    package static let name = "discard"
    package static let synopsis = "JOB [--state-dir DIR] [--store URL]"
    package static let summary = "Throw away a stopped job and its partial work"
    package static let discussion = """
        Removes the job's workspace and marks it discarded. Anything the job already published
        at its destination stays. A running job must be cancelled first.

        Example:
          mediajob discard 1a2b3c4d
        """
    package static let options = CommonOptions.jobStore + [CommonOptions.json]

    package static func run(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openScheduler()
        let job = try context.namedJob(in: scheduler)
        try scheduler.discard(job.id)
        if context.json {
            context.console.json(["event": "discarded", "job_id": job.id.rawValue, "outcome": "discarded"])
        } else {
            context.console.err("Discarded job \(job.id.short) and its partial work.")
        }
        return ExitCode.completed
    }
}
