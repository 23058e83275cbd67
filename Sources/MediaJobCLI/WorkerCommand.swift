import Foundation

/// `mediajob worker`: takes chunks of any job kept in a shared store and runs them: PostgreSQL
/// for workers on many machines, or the state folder's SQLite store for a pool on one machine.
package enum WorkerCommand: MediaCommand {
    package static let name = "worker"
    package static let synopsis = "[--store URL] [--slots N] [--lease SECONDS] [--gpu auto|on|off] [--state-dir DIR]"
    package static let summary = "Run chunks of the jobs in a shared store, on this machine or from any machine"
    package static let discussion = """
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
    package static let options: [OptionSpec] = [
        .option("slots", "N", "chunks this worker runs at once (default: from CPUs and memory)"),
        CommonOptions.lease, CommonOptions.gpu, CommonOptions.verbose,
    ] + CommonOptions.jobStore
    package static let runsJobs = true
}
