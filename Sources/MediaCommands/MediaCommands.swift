import MediaJobCLI
import MediaJobs
import PhotoJobs

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
        // Starting the libraries needs only the temporary folder; the environment the command's jobs
        // run with is built once, when it opens its scheduler (``CommandContext/openMediaScheduler()``).
        if command.runsJobs { try MediaEnvironment.startLibraries(temporaryDirectory: context.mediaTemporaryDirectory) }
        GPUProbeProcess.install(arguments: context.arguments, environment: context.environment)
        return try await work.work(context)
    }
}
