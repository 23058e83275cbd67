/// `mediajob help [COMMAND]`.
enum HelpCommand: Command {
    static let name = "help"
    static let synopsis = "[COMMAND]"
    static let summary = "Show help for mediajob or one of its commands"
    static let discussion = """
        Without a command, lists every command. With one, shows its options and examples.
        Every command also takes -h or --help.
        """
    static let options: [OptionSpec] = []

    static func run(_ context: CommandContext) async throws -> Int32 {
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
