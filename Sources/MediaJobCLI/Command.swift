/// One `mediajob` command: its words for `help`, its options, and what it does.
protocol Command {
    /// The word that picks the command.
    static var name: String { get }
    /// The arguments after the name, as shown in usage lines.
    static var synopsis: String { get }
    /// One line saying what the command does.
    static var summary: String { get }
    /// Paragraphs for `mediajob help <name>`: details and examples.
    static var discussion: String { get }
    /// The options the command takes (`--help` is added to all).
    static var options: [OptionSpec] { get }
    /// Whether the command may run media jobs, so the media libraries start before it does.
    static var runsJobs: Bool { get }
    /// Runs the command; returns the exit code.
    static func run(_ context: CommandContext) async throws -> Int32
}

extension Command {
    static var runsJobs: Bool { false }
}

/// Every command, in the order `help` lists them.
enum Commands {
    static var all: [any Command.Type] {[
        InitCommand.self, ExportCommand.self, ThumbnailCommand.self, CompressCommand.self, SelfTestCommand.self, WorkerCommand.self, JobsCommand.self, StatusCommand.self, CancelCommand.self, ResumeCommand.self,
        RestartCommand.self, DiscardCommand.self, ProbeCommand.self, PruneCommand.self, CompletionCommand.self, HelpCommand.self,
    ]}

    static func named(_ name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
