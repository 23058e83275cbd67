import Foundation

/// `mediajob jobs`: lists the jobs in the store.
package enum JobsCommand: Command {
    package static let name = "jobs"
    package static let synopsis = "[--all] [--json] [--state-dir DIR] [--store URL]"
    package static let summary = "List jobs with their state, progress and destination"
    package static let discussion = """
        Lists the jobs in the store (the state folder's, or --store's), oldest first, with where
        each one's result goes. A job whose process vanished shows as interrupted: nothing
        resumes by itself; resume, restart or discard it. Discarded jobs, and submissions refused
        before any work (an existing output, unusable inputs, no free slot), are kept in the
        journal but listed only with --all. With --json, prints an array of the objects
        `status --json` prints.
        """
    package static let options = [OptionSpec.flag("all", "list discarded jobs and refused submissions too")]
        + CommonOptions.jobStore + [CommonOptions.json]

    package static func run(_ context: CommandContext) async throws -> Int32 {
        try context.arguments.none()
        let all = context.arguments.has("all")
        let scheduler = try context.openScheduler(cleaning: false)
        let kept = try scheduler.jobs()
        scheduler.cleanFinishedWorkspaces(of: kept)
        let jobs = kept.filter { all || ![.rejected, .discarded].contains($0.state) }
        if context.json {
            let data = try JSONSerialization.data(withJSONObject: jobs.map { JobDescription.json($0) },
                                                  options: [.sortedKeys, .withoutEscapingSlashes])
            context.console.out(String(decoding: data, as: UTF8.self))
        } else if jobs.isEmpty {
            context.console.err(kept.isEmpty ? "No jobs yet. Start one with: mediajob selftest\(context.stateDirectoryArgument)"
                                : "No jobs to show; \(kept.count == 1 ? "one discarded or refused job is" : "\(kept.count) discarded or refused jobs are") "
                                + "listed with: mediajob jobs --all\(context.stateDirectoryArgument)")
        } else {
            let home = context.environment["HOME"] ?? NSHomeDirectory()
            context.console.out(JobDescription.table(["JOB", "KIND", "STATE", "DONE", "DESTINATION", "TITLE"],
                                                     jobs.map { JobDescription.row($0, home: home) }))
        }
        return ExitCode.completed
    }
}
