import MediaJobCLI

/// A media command's work, done in `mediajob-media` with the media libraries.
protocol CommandWork: MediaCommand {
    /// Does the command; returns the exit code.
    static func work(_ context: CommandContext) async throws -> Int32
}

/// The media commands' work, which `mediajob-media` gives ``MediaJobCLI/main(_:environment:media:)``.
package struct MediaCommands: MediaWork {
    package init() {}

    package func run(_ command: any MediaCommand.Type, _ context: CommandContext) async throws -> Int32 {
        guard let work = command as? any CommandWork.Type else {
            preconditionFailure("the media command '\(command.name)' has no work in MediaCommands")
        }
        if command.runsJobs { try context.media().startLibraries() }
        GPUProbeProcess.install(arguments: context.arguments, environment: context.environment)
        return try await work.work(context)
    }
}
