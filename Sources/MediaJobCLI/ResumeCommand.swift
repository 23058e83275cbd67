import JobEngine

/// `mediajob resume JOB`: continues a paused, interrupted or failed job from its last checkpoint.
enum ResumeCommand: Command {
    static let name = "resume"
    static let runsJobs = true
    static let synopsis = "JOB [options]"
    static let summary = "Continue a paused, interrupted or failed job from its last checkpoint"
    static let discussion = """
        Runs the job in the foreground from where it stopped: finished chunks are kept, at most
        the chunk that was in flight is redone, and the result is the same as an uninterrupted
        run's. JOB is the job's id or its first characters (at least four), as `mediajob jobs`
        shows them. While the machine is critically hot, resume refuses (exit 75) and the job
        stays paused; a job ended by a full disk is failed and resumes once space is freed.

        Example:
          mediajob resume 1a2b3c4d
        """
    static let options = CommonOptions.running

    static func run(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openScheduler()
        let handle = try scheduler.resume(try context.namedJob(in: scheduler).id, strategy: try context.strategy())
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Resuming")
    }
}

/// `mediajob restart JOB`: throws a job's partial work away and runs it again from nothing.
enum RestartCommand: Command {
    static let name = "restart"
    static let runsJobs = true
    static let synopsis = "JOB [options]"
    static let summary = "Throw a job's partial work away and run it again from the start"
    static let discussion = """
        Keeps the job's settings and plan, removes its workspace, and runs every chunk again.
        Use it when a resumed job keeps failing, or when its inputs changed.

        Example:
          mediajob restart 1a2b3c4d
        """
    static let options = CommonOptions.running

    static func run(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openScheduler()
        let handle = try scheduler.restart(try context.namedJob(in: scheduler).id, strategy: try context.strategy())
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Restarting")
    }
}
