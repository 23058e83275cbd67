/// `mediajob help [COMMAND]`.
package enum HelpCommand: Command {
    package static let name = "help"
    package static let synopsis = "[COMMAND]"
    package static let summary = "Show help for mediajob or one of its commands"
    package static let discussion = """
        Without a command, lists every command. With one, shows its options and examples.
        Every command also takes -h or --help.
        """
    package static let options: [OptionSpec] = []

    package static func run(_ context: CommandContext) async throws -> Int32 {
        guard let name = context.arguments.positionals.first else {
            context.console.out(HelpText.overview)
            return ExitCode.completed
        }
        guard let command = Commands.named(name) else {
            throw UsageError("unknown command '\(name)'\(Suggestion.didYouMean(name, in: Commands.all.map { $0.name }))")
        }
        context.console.out(HelpText.help(for: command))
        return ExitCode.completed
    }
}
