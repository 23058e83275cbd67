import Foundation
import GPURender
import JobEngine
import MediaJobCLI
import PhotoJobs

/// The job kinds a media program runs, registered on each scheduler its commands open
/// (``MediaJobCLI/CommandContext/openMediaScheduler(_:)``): every kind in `mediajob-media`, the
/// thumbnail kind alone in `mediajob-photo`.
package protocol ProgramJobKinds: Sendable {
    /// Registers the program's kinds on `scheduler`, each running with `environment`.
    func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws

    /// Whether `--gpu auto` renders `operation` on `renderer`'s GPU: where the program measured it
    /// faster, by the record in `stateDirectory` (`environment` may set how it measures).
    func gpuIsFaster(_ operation: RenderOperation, on renderer: GPURenderer, stateDirectory: URL,
                     environment: [String: String]) -> Bool

    /// Before a thumbnail run of `items` with `settings` is submitted: the exit code of the program
    /// that does the run instead, which replaces this process (so only when it cannot start);
    /// `nil` when this program does it.
    /// - Throws: ``MediaProgramMissing`` when that program cannot be started.
    func handOverRun(of items: [InputItem], settings: BatchSettings, context: CommandContext) throws -> Int32?

    /// For a job this program ran that ended paused, not by a stop the person asked for (Ctrl-C,
    /// SIGTERM): the exit code of the program that goes on
    /// with it, which replaces this process (so only when it cannot start); `nil` when the job
    /// stays paused here.
    /// - Throws: ``MediaProgramMissing`` when that program cannot be started.
    func handOver(_ job: JobRecord, context: CommandContext) throws -> Int32?

    /// Has `stop` called once a running job meets an input that makes it pause for ``handOver(_:context:)``.
    func whenHandOverNeeded(_ stop: @escaping @Sendable () -> Void)
}

extension ProgramJobKinds {
    package func handOverRun(of items: [InputItem], settings: BatchSettings, context: CommandContext) throws -> Int32? { nil }

    package func handOver(_ job: JobRecord, context: CommandContext) throws -> Int32? { nil }

    package func whenHandOverNeeded(_ stop: @escaping @Sendable () -> Void) {}
}
