/// The command line could not be understood. Printed as `Error: …` with a usage hint; exit 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The command whose usage to point at, if known.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var description: String { message }
}
