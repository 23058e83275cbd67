/// `mediajob completion bash|zsh|fish`: prints a shell completion script.
package enum CompletionCommand: Command {
    package static let name = "completion"
    package static let synopsis = "bash|zsh|fish"
    package static let summary = "Print a shell completion script (commands, options, job ids)"
    package static let discussion = """
        Prints a script that completes mediajob's commands, each command's options, and job ids
        (from `mediajob jobs --all`) where a command takes JOB; paths elsewhere. Install it where
        your shell looks, for example:

          mediajob completion bash > /usr/share/bash-completion/completions/mediajob
          mediajob completion zsh > "${fpath[1]}/_mediajob"
          mediajob completion fish > ~/.config/fish/completions/mediajob.fish
        """
    package static let options: [OptionSpec] = []

    package static func run(_ context: CommandContext) async throws -> Int32 {
        let shell = try context.arguments.single("bash|zsh|fish")
        switch shell {
        case "bash": context.console.out(CompletionScript.bash)
        case "zsh": context.console.out(CompletionScript.zsh)
        case "fish": context.console.out(CompletionScript.fish)
        default:
            throw UsageError("the shell must be bash, zsh or fish, got '\(shell)'\(Suggestion.didYouMean(shell, in: ["bash", "zsh", "fish"]))",
                             command: name)
        }
        return ExitCode.completed
    }
}
