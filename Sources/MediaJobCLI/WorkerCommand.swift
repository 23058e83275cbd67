import Foundation
import GPURender
import JobEngine
import MediaJobs

/// `mediajob worker`: takes chunks of any job kept in a shared store and runs them: PostgreSQL
/// for workers on many machines, or the state folder's SQLite store for a pool on one machine.
enum WorkerCommand: Command {
    static let name = "worker"
    static let synopsis = "[--store URL] [--slots N] [--lease SECONDS] [--gpu auto|on|off] [--state-dir DIR]"
    static let summary = "Run chunks of the jobs in a shared store, on this machine or from any machine"
    static let discussion = """
        Claims chunks of any queued or running job in the store, runs them, and records each one
        done under its lease, until stopped. Jobs submitted with --detach are run by workers
        alone; others by the workers and the process that submitted them. Each chunk is leased for --lease seconds and the lease is renewed every third of
        that; a worker that cannot renew stops the chunk and drops its work, and another worker
        takes the chunk over once the lease has run out.

        With --store postgresql://… (or MEDIAJOB_STORE) workers on many machines share the jobs;
        inputs and destinations must be at the same paths on every worker's machine (a shared
        mount). Without it, the workers started with the same state folder share the jobs in its
        SQLite store: a pool of processes on one machine.

        SIGINT or SIGTERM: no more claims, the chunks in flight finish and are recorded, exit 0.
        A second one gives the chunks in flight back at once (another worker redoes them).

        Examples:
          mediajob worker --store postgresql://media@db1/mediajob
          mediajob worker --slots 4 --lease 10
        """
    static let options: [OptionSpec] = [
        .option("slots", "N", "chunks this worker runs at once (default: from CPUs and memory)"),
        CommonOptions.lease, CommonOptions.gpu, CommonOptions.verbose,
    ] + CommonOptions.jobStore
    static let runsJobs = true

    static func run(_ context: CommandContext) async throws -> Int32 {
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
        let scheduler = try context.openScheduler()
        guard let store = scheduler.store as? any LeasingJobStore else { return ExitCode.failed }
        await LeaseWorker(scheduler: scheduler, store: store, slots: slots, lease: lease, hasGPU: hasGPU,
                          cancels: try context.storeLocation().cancelListener(), console: context.console).run()
        return ExitCode.completed
    }
}
