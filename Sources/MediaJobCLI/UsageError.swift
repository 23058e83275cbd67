/// The command line could not be understood. Printed as `Error: …` with a usage hint; exit 64.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    /// The command whose usage to point at, if known.
    package var command: String?

    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    package var description: String { message }
}
