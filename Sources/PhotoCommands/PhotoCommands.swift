import Foundation
import GPURender
import JobEngine
import MediaJobCLI
import PhotoJobs

/// The work of `mediajob-photo`, which `mediajob` hands thumbnail runs to: thumbnails of photos
/// with libvips alone (no FFmpeg, whose ~95 libraries a run of photos would load for nothing).
/// A run with anything but photos, and every other command, goes to `mediajob-media`, which
/// replaces this process with the same arguments; so does a job that meets such an input as it
/// runs, resumed there from its last checkpoint.
package struct PhotoCommands: MediaWork, ProgramJobKinds {
    private let inputs = PhotoOnlyInputs()

    package init() {}

    package func run(_ command: any MediaCommand.Type, _ context: CommandContext) async throws -> Int32 {
        guard command is ThumbnailCommand.Type else { return try MediaProgram.takeOver(arguments: context.commandLine) }
        try MediaEnvironment.startPhotoLibraries(temporaryDirectory: context.mediaTemporaryDirectory,
                                                 modules: ThumbnailCommand.vipsModules(context))
        GPUProbeProcess.install(arguments: context.arguments, environment: context.environment)
        return try await ThumbnailCommand.work(context, kinds: self)
    }

    package func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws {
        try MediaJobKinds.registerThumbnails(on: scheduler, environment: environment, videos: inputs)
    }

    /// Always: the thumbnail kind takes photos to the GPU only under `--gpu on`, and never asks.
    package func gpuIsFaster(_ operation: RenderOperation, on renderer: GPURenderer, stateDirectory: URL,
                             environment: [String: String]) -> Bool {
        true
    }

    /// `mediajob-media` with the same arguments, unless every input is a photo (or cannot be read at
    /// all). An input named as a video sends the run there at once, before any header is read for
    /// nothing (which program runs it never changes what it makes).
    package func handOverRun(of items: [InputItem], settings: BatchSettings, context: CommandContext) throws -> Int32? {
        let namedVideo = items.contains { InputCollector.videoExtensions.contains(URL(fileURLWithPath: $0.path).pathExtension.lowercased()) }
        guard namedVideo || !inputs.photosOnly(items.map(\.path), settings: settings) else { return nil }
        return try MediaProgram.takeOver(arguments: context.commandLine)
    }

    /// `mediajob-media resume JOB`, with this command's store, state folder and output options, when
    /// the job paused for an input only it can judge.
    package func handOver(_ job: JobRecord, context: CommandContext) throws -> Int32? {
        guard inputs.needsMediaProgram else { return nil }
        let carried = CommonOptions.running.flatMap { option -> [String] in
            if option.value != nil { return context.arguments.value(option.name).map { ["--\(option.name)", $0] } ?? [] }
            return context.arguments.has(option.name) ? ["--\(option.name)"] : []
        }
        return try MediaProgram.takeOver(arguments: ["resume", job.id.rawValue] + carried)
    }

    package func whenHandOverNeeded(_ stop: @escaping @Sendable () -> Void) {
        inputs.whenNonPhotoMet(stop)
    }
}
