import Foundation
import GPURender
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands
import PhotoJobs

/// The media commands' work, which `mediajob-media` gives ``MediaJobCLI/main(_:environment:media:)``:
/// every command, with every job kind.
package struct MediaCommands: MediaWork, ProgramJobKinds {
    package init() {}

    package func run(_ command: any MediaCommand.Type, _ context: CommandContext) async throws -> Int32 {
        guard let work = command as? any CommandWork.Type else {
            preconditionFailure("the media command '\(command.name)' has no work in MediaCommands")
        }
        // Starting the libraries needs only the temporary folder; the environment the command's jobs
        // run with is built once, when it opens its scheduler (``CommandContext/openMediaScheduler(_:)``).
        if command.runsJobs { try MediaEnvironment.startLibraries(temporaryDirectory: context.mediaTemporaryDirectory) }
        GPUProbeProcess.install(arguments: context.arguments, environment: context.environment)
        return try await work.work(context, kinds: self)
    }

    package func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws {
        try MediaJobKinds.register(on: scheduler, environment: environment)
    }

    /// Where measured (``AutoRenderPaths``, which measures when the record is missing or stale);
    /// on the GPU when measuring failed.
    package func gpuIsFaster(_ operation: RenderOperation, on renderer: GPURenderer, stateDirectory: URL,
                             environment: [String: String]) -> Bool {
        AutoRenderPaths.record(for: renderer, folder: stateDirectory, environment: environment)?.gpuIsFaster(for: operation) ?? true
    }
}
