/// The words of `mediajob help` and `--help`.
package enum HelpText {
    package static let version = "mediajob 0.1.0"

    /// The overview: what the program does and its commands.
    package static var overview: String {
        let width = Commands.all.map { $0.name.count }.max() ?? 0
        let lines = Commands.all.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            mediajob — a media batch processor that runs jobs in durable, resumable chunks.

            Usage: mediajob <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            A job runs in the foreground with a progress bar. Ctrl-C pauses it at the next chunk
            boundary (exit 75); `mediajob resume JOB` continues it from its last checkpoint.
            Exit codes: 0 completed, 1 failed, 64 usage error, 65 invalid input, 69 rejected,
            75 paused (resumable).

            Run 'mediajob help <command>' for a command's options and examples.
            """
    }

    /// The full help of one command.
    package static func help(for command: any Command.Type) -> String {
        let options = command.options + [CommonOptions.help]
        let labels = options.map { option in
            (option.short.map { "-\($0), " } ?? "    ") + "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
        }
        let width = labels.map(\.count).max() ?? 0
        let rows = zip(labels, options).map { "  \($0.padding(toLength: width, withPad: " ", startingAt: 0))  \($1.help)" }
        return """
            \(command.summary)

            Usage: \(usage(for: command))

            \(command.discussion)

            Options:
            \(rows.joined(separator: "\n"))
            """
    }

    /// The usage line of one command.
    package static func usage(for command: any Command.Type) -> String {
        "mediajob \(command.name)\(command.synopsis.isEmpty ? "" : " " + command.synopsis)"
    }
}
