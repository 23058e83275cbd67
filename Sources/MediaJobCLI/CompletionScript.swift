/// Shell completion scripts made from the commands' own option lists, so that they never drift.
package enum CompletionScript {
    /// The commands whose argument is a job (`JOB` or `[JOB]` in their usage).
    package static var jobCommands: [String] {
        Commands.all.filter { $0.synopsis.hasPrefix("JOB") || $0.synopsis.hasPrefix("[JOB]") }.map { $0.name }
    }

    private static func options(of command: any Command.Type) -> [String] {
        (command.options + [CommonOptions.help]).map { "--\($0.name)" }
    }

    /// The job ids `mediajob jobs --all` lists: its first column, header aside.
    private static let jobIDs = "mediajob jobs --all 2>/dev/null | tail -n +2 | cut -d' ' -f1"

    /// For bash: `complete -F _mediajob mediajob`.
    package static var bash: String {
        let names = Commands.all.map { $0.name }.joined(separator: " ")
        let cases = Commands.all.map { "        \($0.name)) options=\"\(options(of: $0).joined(separator: " "))\" ;;" }
        return """
            # mediajob completion for bash: mediajob completion bash > /usr/share/bash-completion/completions/mediajob
            _mediajob() {
                local cur="${COMP_WORDS[COMP_CWORD]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(names) --help --version" -- "$cur"))
                    return
                fi
                local command="${COMP_WORDS[1]}" options=""
                case "$command" in
            \(cases.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                    return
                fi
                case "$command" in
                    \(jobCommands.joined(separator: "|"))) COMPREPLY=($(compgen -W "$(\(jobIDs))" -- "$cur")) ;;
                    help) COMPREPLY=($(compgen -W "\(names)" -- "$cur")) ;;
                    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
                    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
                esac
            }
            complete -o filenames -F _mediajob mediajob
            """
    }

    /// For zsh: the bash script through zsh's `bashcompinit`.
    package static var zsh: String {
        """
        #compdef mediajob
        # mediajob completion for zsh, through bashcompinit
        autoload -U +X bashcompinit && bashcompinit
        \(bash)
        """
    }

    /// For fish: one `complete` line per command and option.
    package static var fish: String {
        var lines = [
            "# mediajob completion for fish: mediajob completion fish > ~/.config/fish/completions/mediajob.fish",
            "complete -c mediajob -f",
        ]
        for command in Commands.all {
            lines.append("complete -c mediajob -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.summary))")
            for option in command.options + [CommonOptions.help] {
                lines.append("complete -c mediajob -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)"
                             + (option.value == nil ? "" : " -r") + " -d \(fishQuoted(option.help))")
            }
        }
        lines.append("complete -c mediajob -n '__fish_seen_subcommand_from \(jobCommands.joined(separator: " "))' -a '(\(jobIDs))'")
        lines.append("complete -c mediajob -n '__fish_seen_subcommand_from init export thumbnail compress' -F")
        lines.append("complete -c mediajob -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
        return lines.joined(separator: "\n")
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
