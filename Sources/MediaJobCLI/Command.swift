/// One `mediajob` command: its words for `help`, its options, and what it does.
package protocol Command {
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
    /// The program `mediajob` hands the command to when it is a ``MediaCommand``
    /// (``MediaProgram/fileName`` or ``MediaProgram/photoFileName``).
    static var program: String { get }
    /// Runs the command; returns the exit code.
    static func run(_ context: CommandContext) async throws -> Int32
}

extension Command {
    package static var runsJobs: Bool { false }
    package static var program: String { MediaProgram.fileName }
}

/// A command whose work needs the media libraries (libvips, FFmpeg, Vulkan). Its words are here,
/// for `help`; its work is in the MediaCommands module, linked only into `mediajob-media`, to
/// which `mediajob` hands the command (``MediaProgram``) so that the commands that need no media
/// start without loading those libraries.
package protocol MediaCommand: Command {}

extension MediaCommand {
    package static func run(_ context: CommandContext) async throws -> Int32 {
        guard let media = context.mediaWork else {
            return try MediaProgram.takeOver(arguments: context.commandLine, program: program)
        }
        return try await media.run(self, context)
    }
}

/// The media commands' work, which `mediajob-media` gives ``MediaJobCLI/main(_:environment:media:)``.
package protocol MediaWork: Sendable {
    /// Runs `command` with the media libraries; returns the exit code.
    func run(_ command: any MediaCommand.Type, _ context: CommandContext) async throws -> Int32
}

/// Every command, in the order `help` lists them.
package enum Commands {
    package static var all: [any Command.Type] {[
        InitCommand.self, ExportCommand.self, ThumbnailCommand.self, CompressCommand.self, SelfTestCommand.self, WorkerCommand.self, JobsCommand.self, StatusCommand.self, CancelCommand.self, ResumeCommand.self,
        RestartCommand.self, DiscardCommand.self, ProbeCommand.self, PruneCommand.self, CompletionCommand.self, HelpCommand.self,
    ]}

    package static func named(_ name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
