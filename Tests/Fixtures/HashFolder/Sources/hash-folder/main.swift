import FolderHashing
import Foundation
import JobEngine
import SQLiteJobStore
import TaskContract

// hash-folder FOLDER REPORT STATE-FOLDER [--stop-after N]
//
// Hashes every file of FOLDER into REPORT, as a durable job kept in STATE-FOLDER: Ctrl-C pauses it
// at the next file (a second Ctrl-C stops it at once), and the same command run again resumes it.
// --stop-after N pauses it once N files are done, as a "Pause" button would.

/// Runs the job to an outcome: exit status 0 completed, 75 paused, 1 otherwise.
func hashFolder(_ folder: String, report: String, state: URL, stopAfter: Int) async throws -> Int32 {
    let scheduler = try JobScheduler(store: try SQLiteJobStore(path: state.appendingPathComponent("jobs.sqlite").path),
                                     lockDirectory: state.appendingPathComponent("locks"), maxConcurrentJobs: 1,
                                     workspacePrefix: "hashfolder")
    let permitted = try TaskIdentifier(HashJob.permitted)
    try scheduler.register(HashJob(), permitted: permitted)
    let request = try TaskRequest(identifier: permitted.unique(), title: "Hashing \(folder)", subtitle: "hashing")
    let handle: JobHandle
    switch try scheduler.submit(request, spec: HashJob.Spec(folder: folder, report: report)) {
    case .created(let new):
        handle = new
        print("started \(new.id)")
    case .existing(let job):
        handle = try scheduler.resume(job.id)
        print("resumed \(job.id) at \(job.progress.unitsDone)/\(job.progress.unitsTotal)")
    }
    handle.task.observe { event in
        guard case .progress(let snapshot) = event else { return }
        print("\(snapshot.unitsDone)/\(snapshot.unitsTotal) \(Int(snapshot.fraction * 100))% \(handle.task.subtitle)")
        if snapshot.unitsDone >= stopAfter { handle.task.expire() }
    }
    let signals = StopSignals(stopping: handle, on: scheduler)
    let outcome = await scheduler.run(handle)
    signals.cancel()
    print(outcome.name)
    return outcome == .completed ? 0 : outcome == .paused ? 75 : 1
}

let arguments = Array(CommandLine.arguments.dropFirst())
let stopAfter: Int? = switch arguments.count {
case 3: .max
case 5 where arguments[3] == "--stop-after": Int(arguments[4])
default: nil
}
guard let stopAfter else {
    FileHandle.standardError.write(Data("usage: hash-folder FOLDER REPORT STATE-FOLDER [--stop-after N]\n".utf8))
    exit(64)
}
do {
    exit(try await hashFolder(arguments[0], report: arguments[1], state: URL(fileURLWithPath: arguments[2]),
                              stopAfter: stopAfter))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
