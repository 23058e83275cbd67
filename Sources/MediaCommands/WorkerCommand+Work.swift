import Foundation
import GPURender
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands

extension WorkerCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        try context.arguments.none()
        let slots = try context.arguments.integer("slots", in: 1...1024) ?? context.chunkParallelism
        let lease = try context.leaseDuration()
        let hasGPU: Bool
        switch try context.gpuPreference() {
        case .off: hasGPU = false
        case .auto: hasGPU = GPUSelection.current().renderer != nil
        case .on:
            let selection = GPUSelection.current()
            guard selection.renderer != nil else {
                context.console.error("--gpu on: no GPU passed its probe here (\(selection.report.reason))",
                                      "Run without --gpu on to take the chunks any machine can run.")
                return ExitCode.rejected
            }
            hasGPU = true
        }
        let scheduler = try context.openMediaScheduler(kinds)
        guard let store = scheduler.store as? any LeasingJobStore else { return ExitCode.failed }
        let location = try context.storeLocation()
        await LeaseWorker(scheduler: scheduler, store: store, renewals: location.storeOnItsOwnConnection(),
                          commits: location.storeOnItsOwnConnection(), slots: slots, lease: lease, hasGPU: hasGPU,
                          announcements: location.announcementListener(), console: context.console).run()
        return ExitCode.completed
    }
}
