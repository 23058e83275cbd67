import Foundation
import JobEngine
import MediaJobs
import TaskContract

/// `mediajob selftest`: a synthetic chunked job that exercises the engine without media.
enum SelfTestCommand: Command {
    static let name = "selftest"
    static let synopsis = "[--units N] [--unit-ms MS] [--fail-at K] [--output FILE] [options]"
    static let summary = "Run a synthetic chunked job that exercises the job engine"
    static let discussion = """
        Runs N units through the engine exactly as a media job runs its chunks: each unit is
        committed to the job's workspace, checkpointed, and only then counted on the bar. Even
        units count as render work, odd units as encode work and take twice as long. The result
        file lists every committed unit and how many times each one ran, so a crash test can
        tell that nothing was lost or done twice.

        Examples:
          mediajob selftest --units 40 --unit-ms 100
          mediajob selftest --units 10 --fail-at 7        # fails at unit 7; resume retries it
          mediajob selftest --json | jq .fraction
        """
    static let options: [OptionSpec] = [
        .option("units", "N", "how many units to run (default 20)"),
        .option("unit-ms", "MS", "milliseconds an even unit takes; odd units take twice as long (default 50)"),
        .option("fail-at", "K", "make unit K fail, to see a failed job"),
        .option("output", "FILE", "where the result goes (default: selftest/result.json in the state folder)"),
        .flag("overwrite", "replace an existing result file"),
    ] + CommonOptions.submitting

    static func run(_ context: CommandContext) async throws -> Int32 {
        let arguments = context.arguments
        try arguments.none()
        let units = try arguments.integer("units", in: 1...1_000_000) ?? 20
        let output = arguments.value("output").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let spec = SelfTestJob.Spec(
            units: units, unitMilliseconds: try arguments.integer("unit-ms", in: 0...3_600_000) ?? 50,
            failAt: try arguments.integer("fail-at", in: 0...(units - 1)),
            output: output ?? context.stateDirectory.appendingPathComponent("selftest/result.json").path,
            overwrite: output == nil || arguments.has("overwrite"))
        let scheduler = try context.openScheduler()
        let request = try TaskRequest(identifier: MediaJobKinds.identifier("selftest"), title: spec.title,
                                      subtitle: "starting", strategy: try context.strategy())
        let session = JobSession(context: context, scheduler: scheduler)
        return try await session.run {
            try scheduler.submit(request, spec: spec, detached: session.submitsForWorkers, submitterWorks: session.worksOnIt)
        }
    }
}
