import Foundation

/// `mediajob jobs`: lists every job in the state folder.
enum JobsCommand: Command {
    static let name = "jobs"
    static let synopsis = "[--json] [--state-dir DIR] [--store URL]"
    static let summary = "List jobs with their state and progress"
    static let discussion = """
        Lists every job in the store (the state folder's, or --store's), oldest first. A job whose
        process vanished shows as interrupted: nothing resumes by itself; resume, restart or discard it.
        With --json, prints an array of the objects `status --json` prints.
        """
    static let options = CommonOptions.jobStore + [CommonOptions.json]

    static func run(_ context: CommandContext) async throws -> Int32 {
        try context.arguments.none()
        let jobs = try context.openScheduler().jobs()
        if context.json {
            let data = try JSONSerialization.data(withJSONObject: jobs.map { JobDescription.json($0) },
                                                  options: [.sortedKeys, .withoutEscapingSlashes])
            context.console.out(String(decoding: data, as: UTF8.self))
        } else if jobs.isEmpty {
            context.console.out("No jobs yet. Start one with: mediajob selftest")
        } else {
            context.console.out(JobDescription.table(["JOB", "KIND", "STATE", "DONE", "TITLE"], jobs.map(JobDescription.row)))
        }
        return ExitCode.completed
    }
}
