import JobEngine

/// `mediajob cancel JOB`: asks the process running a job to pause it at the next chunk boundary.
enum CancelCommand: Command {
    static let name = "cancel"
    static let synopsis = "JOB [--no-wait] [--state-dir DIR] [--store URL]"
    static let summary = "Ask a running or queued job, in any process, to pause at its next chunk boundary"
    static let discussion = """
        The request goes through the job store, so it reaches the job wherever it runs on this
        machine. The job finishes or abandons the chunk in hand, keeps its last checkpoint, and
        ends paused; resume it later with `mediajob resume JOB`. Waits until the job has
        stopped unless --no-wait is given; with --json, then prints the job as `status --json` does.

        Example:
          mediajob cancel 1a2b3c4d
        """
    static let options: [OptionSpec] = [
        .flag("no-wait", "return as soon as the request is recorded"), CommonOptions.stateDir, CommonOptions.store, CommonOptions.json,
    ]

    static func run(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openScheduler()
        let job = try context.namedJob(in: scheduler)
        try scheduler.cancel(job.id)
        context.console.err("Asked job \(job.id.short) to stop at its next chunk boundary.")
        guard !context.arguments.has("no-wait") else { return ExitCode.completed }
        var current = job
        while current.state.isLive {
            try await Task.sleep(for: .milliseconds(100))
            current = try scheduler.job(matching: job.id.rawValue)
        }
        if context.json {
            context.console.json(JobDescription.json(current))
            return ExitCode.completed
        }
        context.console.err("Job \(job.id.short) is \(current.state.rawValue) at \(JobDescription.percent(current.progress.fraction)).")
        if let next = JobDescription.nextStep(current, stateDirArgument: context.stateDirectoryArgument) {
            context.console.err("Next: \(next)")
        }
        return ExitCode.completed
    }
}
