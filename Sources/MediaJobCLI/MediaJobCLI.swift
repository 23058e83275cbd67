import JobEngine
import TaskContract

/// The `mediajob` program: picks the command, parses its options, runs it, and turns errors
/// into `Error: …` lines and exit codes.
public enum MediaJobCLI {
    /// Runs the program with `arguments` (without the program name) and returns the exit code.
    ///
    /// - Parameter media: the media commands' work, in `mediajob-media`; without it (in `mediajob`),
    ///   a media command replaces this process with `mediajob-media` (``MediaProgram``).
    package static func main(_ arguments: [String], environment: [String: String], media: (any MediaWork)? = nil) async -> Int32 {
        let console = Console()
        // Benchmark-only: measures what checkpoints cost by skipping every fsync. Never for real work.
        if environment["MEDIAJOB_BENCH_NO_FSYNC"] == "1" { DurableFiles.isSyncEnabled = false }
        guard let first = arguments.first else {
            console.out(HelpText.overview)
            return ExitCode.completed
        }
        if ["--version", "-V", "version"].contains(first) {
            console.out(HelpText.version)
            return ExitCode.completed
        }
        if first == "-h" || first == "--help" {
            console.out(HelpText.overview)
            return ExitCode.completed
        }
        guard let command = Commands.named(first) else {
            let guess = Suggestion.didYouMean(first, in: Commands.all.map { $0.name })
            console.error("unknown command '\(first)'\(guess)", "Run 'mediajob help' to see the commands.")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        var stateDirArgument = "" // to repeat in a suggested command
        do {
            let parsed = try ParsedArguments(command: command.name, arguments: rest,
                                             specs: command.options + [CommonOptions.help])
            if parsed.has("help") {
                console.out(HelpText.help(for: command))
                return ExitCode.completed
            }
            let context = CommandContext(arguments: parsed, environment: environment, console: console,
                                         commandLine: arguments, mediaWork: media)
            stateDirArgument = context.stateDirectoryArgument
            try OpenFileLimit.ensure()
            return try await command.run(context)
        } catch let error as UsageError {
            let hint = (error.command ?? command.name)
            console.error(error.message, "Usage: \(HelpText.usage(for: command))", "Run 'mediajob help \(hint)' for details.")
            return ExitCode.usage
        } catch {
            console.error(ErrorAdvice.sentence(for: error, stateDirArgument: stateDirArgument))
            return exitCode(for: error)
        }
    }

    /// The exit code for an error that ended a command before or outside a job.
    package static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case SchedulerError.rejected(_, let rejection): ExitCode.of(.rejected(rejection.reason))
        case SchedulerError.noSuchJob, SchedulerError.ambiguousJob: ExitCode.usage
        case SchedulerError.ownedByAnotherProcess, SchedulerError.wrongState: ExitCode.rejected
        case SchedulerError.hostHolding: ExitCode.paused
        default: error.failureCategory == .invalidInput ? ExitCode.invalidInput : ExitCode.failed
        }
    }
}
