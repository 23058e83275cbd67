/// One option a command accepts.
package struct OptionSpec: Sendable {
    /// The long name without dashes, for example `state-dir`.
    package var name: String
    /// A one-letter alias, if any.
    package var short: Character?
    /// The value's placeholder in help (`DIR`), or `nil` for a flag.
    package var value: String?
    /// One line of help.
    package var help: String

    package static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, help: help)
    }

    package static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: value, help: help)
    }
}

/// A command line split into options and positional arguments.
package struct ParsedArguments: Sendable {
    package var command: String
    package var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    package init(command: String) { self.command = command }

    /// Parses `arguments` against `specs`. Accepts `--name value`, `--name=value`, `-x`, and `--`
    /// before positional arguments that start with a dash.
    package init(command: String, arguments: [String], specs: [OptionSpec]) throws(UsageError) {
        self.command = command
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: rest)
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.drop { $0 == "-" })
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let spec = argument.hasPrefix("--")
                ? specs.first { $0.name == name }
                : specs.first { $0.short.map(String.init) == name }
            guard let spec else {
                let guess = argument.hasPrefix("--") ? Suggestion.didYouMean(name, in: specs.map(\.name), prefix: "--") : ""
                throw UsageError("unknown option '\(argument)' for '\(command)'\(guess)", command: command)
            }
            if spec.value == nil {
                guard inline == nil else { throw UsageError("--\(spec.name) takes no value", command: command) }
                flags.insert(spec.name)
            } else {
                guard let value = inline ?? rest.popFirst() else {
                    throw UsageError("--\(spec.name) needs a value (\(spec.value!))", command: command)
                }
                values[spec.name, default: []].append(value)
            }
        }
    }

    /// Whether the flag was given.
    package func has(_ name: String) -> Bool { flags.contains(name) }

    /// The option's last value, if given.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// The option's value as a whole number within `range`, if given.
    package func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'",
                             command: command)
        }
        return number
    }

    /// The option's value as one of `choices`, if given.
    package func choice<T: RawRepresentable & CaseIterable>(_ name: String, as _: T.Type) throws(UsageError) -> T? where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let choice = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--\(name) must be one of \(names), got '\(text)'", command: command)
        }
        return choice
    }

    /// Exactly one positional argument, named `placeholder` in the error.
    package func single(_ placeholder: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(positionals.isEmpty ? "missing \(placeholder)" : "expected one \(placeholder), got \(positionals.count)",
                             command: command)
        }
        return positionals[0]
    }

    /// No positional arguments.
    package func none() throws(UsageError) {
        guard positionals.isEmpty else { throw UsageError("unexpected argument '\(positionals[0])'", command: command) }
    }
}
