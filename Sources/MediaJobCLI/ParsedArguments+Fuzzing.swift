extension ParsedArguments {
    /// A `--strategy`-like choice for ``exercise(_:)``.
    private enum FuzzedChoice: String, CaseIterable { case queue, fail }

    /// The options ``exercise(_:)`` parses against: every job-running command's, `--help`, a
    /// choice, and a flag with a one-letter alias.
    package static let fuzzedSpecs = CommonOptions.batch + [
        CommonOptions.help,
        .option("gpu", "auto|on|off", "which renderer"),
        .flag("verbose", short: "v", "a flag with a one-letter alias"),
    ]

    /// Parses `arguments` and calls every accessor a command uses, as the fuzzer
    /// (`Fuzz/ArgumentsFuzzer`) and the replay of its corpus do. Any input must come out as values
    /// or ``UsageError``s — the typed throws make the second certain; a crash is the finding.
    /// - Returns: the messages of the usage errors met.
    package static func exercise(_ arguments: [String]) -> [String] {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(command: "fuzz", arguments: arguments, specs: fuzzedSpecs)
        } catch {
            return [error.message]
        }
        _ = (parsed.has("json"), parsed.value("output"))
        var messages: [String] = []
        func collect(_ body: () throws(UsageError) -> Void) {
            do { try body() } catch { messages.append(error.message) }
        }
        collect { () throws(UsageError) in _ = try parsed.integer("max-pixels", in: 1...1 << 40) }
        collect { () throws(UsageError) in _ = try parsed.integer("max-jobs", in: 1...1024) }
        collect { () throws(UsageError) in _ = try parsed.choice("strategy", as: FuzzedChoice.self) }
        collect { () throws(UsageError) in _ = try parsed.single("<project>") }
        collect { () throws(UsageError) in try parsed.none() }
        return messages
    }
}
