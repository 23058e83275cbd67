import Foundation

/// `mediajob selftest`: a synthetic chunked job that exercises the engine without media.
package enum SelfTestCommand: MediaCommand {
    package static let name = "selftest"
    package static let synopsis = "[--units N] [--unit-ms MS] [--chunk-ms MS] [--fail-at K] [--output FILE] [options]"
    package static let summary = "Run a synthetic chunked job that exercises the job engine"
    package static let discussion = """
        Runs N units through the engine exactly as a media job runs its chunks: each unit is
        committed to the job's workspace, checkpointed, and only then counted on the bar. Even
        units count as render work, odd units as encode work and take twice as long. The result
        file lists every committed unit and how many times each one ran, so a crash test can
        tell that nothing was lost or done twice. With --chunk-ms, consecutive units share a chunk
        until they take that long, and commit one output and one checkpoint together, as a job
        batches short items: a kill then runs that chunk's units again.

        Examples:
          mediajob selftest --units 40 --unit-ms 100
          mediajob selftest --units 10 --fail-at 7        # fails at unit 7; resume retries it
          mediajob selftest --units 40 --chunk-ms 1000    # 40 units of 50/100 ms in chunks of 1 s
          mediajob selftest --json | jq .fraction
        """
    package static let options: [OptionSpec] = [
        .option("units", "N", "how many units to run (default 20)"),
        .option("unit-ms", "MS", "milliseconds an even unit takes; odd units take twice as long (default 50)"),
        .option("chunk-ms", "MS", "units share a chunk until they take this long, at most 1000 of them (default 0: a chunk each)"),
        .option("fail-at", "K", "make unit K fail, to see a failed job"),
        .option("output", "FILE", "where the result goes (default: selftest/result.json in the state folder)"),
        .flag("overwrite", "replace an existing result file"),
    ] + CommonOptions.submitting
}
