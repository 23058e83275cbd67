import JobEngine

/// `mediajob cancel JOB`: asks the process running a job to pause it at the next chunk boundary.
package enum CancelCommand: Command {
    package static let name = "cancel"
    package static let synopsis = "JOB [--no-wait] [--state-dir DIR] [--store URL]"
    package static let summary = "Ask a running or queued job, in any process, to pause at its next chunk boundary"
    package static let discussion = """
        The request goes through the job store, so it reaches the job wherever it runs on this
        machine. The job finishes or abandons the chunk in hand, keeps its last checkpoint, and
        ends paused; resume it later with `mediajob resume JOB`. Waits up to 10 seconds for the
        job to stop unless --no-wait is given; a job still in its chunk then is left to stop at
        its boundary, and the command says how to follow it. With --json, then prints the job
        as `status --json` does.

        Example:
          mediajob cancel 1a2b3c4d
        """
    package static let options: [OptionSpec] = [
        .flag("no-wait", "return as soon as the request is recorded"), CommonOptions.stateDir, CommonOptions.store, CommonOptions.json,
    ]

    /// How long the command waits for the job to stop: the request is recorded before, and the
    /// chunk in hand may take longer (or be held by a debugger), so it never waits for the chunk.
    package static let stopWait = Duration.seconds(10)

    package static func run(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openScheduler()
        let job = try context.namedJob(in: scheduler)
        try scheduler.cancel(job.id)
        context.console.err("Asked job \(job.id.short) to stop at its next chunk boundary.")
        guard !context.arguments.has("no-wait") else { return ExitCode.completed }
        let clock = ContinuousClock()
        let deadline = clock.now + stopWait
        var current = job
        while current.state.isLive, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            current = try scheduler.job(matching: job.id.rawValue)
        }
        if context.json {
            context.console.json(JobDescription.json(current))
            return ExitCode.completed
        }
        if current.state.isLive {
            context.console.err("Job \(job.id.short) is still in its chunk; it will pause at its next chunk boundary. "
                                + "Follow it with: mediajob status \(job.id.short) --watch\(context.stateDirectoryArgument)")
            return ExitCode.completed
        }
        context.console.err("Job \(job.id.short) is \(current.state.rawValue) at \(JobDescription.percent(current.progress.fraction)).")
        if let next = JobDescription.nextStep(current, stateDirArgument: context.stateDirectoryArgument) {
            context.console.err("Next: \(next)")
        }
        return ExitCode.completed
    }
}
