/// `mediajob resume JOB`: continues a paused, interrupted or failed job from its last checkpoint.
package enum ResumeCommand: MediaCommand {
    package static let name = "resume"
    package static let runsJobs = true
    package static let synopsis = "JOB [options]"
    package static let summary = "Continue a paused, interrupted or failed job from its last checkpoint"
    package static let discussion = """
        Runs the job in the foreground from where it stopped: finished chunks are kept, at most
        the chunk that was in flight is redone, and the result is the same as an uninterrupted
        run's. JOB is the job's id or its first characters (at least four), as `mediajob jobs`
        shows them. While the machine is critically hot, resume refuses (exit 75) and the job
        stays paused; a job ended by a full disk is failed and resumes once space is freed.
        An export whose failed or skipped assets were fixed since (a missing file now exists,
        or their entries in project.json were corrected) plans those assets again and keeps
        the rest of its finished work. One whose project.json changed elsewhere is not resumed
        (exit 65): the error says what changed, and `mediajob restart JOB` redoes it from the
        project as it is now.

        Example:
          mediajob resume 1a2b3c4d
        """
    package static let options = CommonOptions.running
}

/// `mediajob restart JOB`: throws a job's partial work away and runs it again from nothing.
package enum RestartCommand: MediaCommand {
    package static let name = "restart"
    package static let runsJobs = true
    package static let synopsis = "JOB [options]"
    package static let summary = "Throw a job's partial work away and run it again from the start"
    package static let discussion = """
        Discards the job and its partial work and runs its work again from the start as a new
        job, planned from its inputs as they are now: an export reads its project.json again
        (with the options it was given: output, --skip-bad, --keep-profile, …), thumbnail and
        compress look at their files again. Use it when the project or the files changed, or
        when a resumed job keeps failing. A self-test restarts as it was planned.

        Example:
          mediajob restart 1a2b3c4d
        """
    package static let options = CommonOptions.running
}
