import Foundation
import JobEngine
import TaskContract

/// What a command runs with: its parsed arguments, the environment and the console, and the
/// way to the job engine.
package struct CommandContext: Sendable {
    package let arguments: ParsedArguments
    package let environment: [String: String]
    package let console: Console
    /// The arguments as given (without the program name), to hand a media command to `mediajob-media`.
    package let commandLine: [String]
    /// The media commands' work, in `mediajob-media` only.
    package let mediaWork: (any MediaWork)?

    /// Whether `--json` was given.
    package var json: Bool { arguments.has("json") }

    /// The state folder: `--state-dir`, else `MEDIAJOB_STATE_DIR`, else
    /// `${XDG_STATE_HOME:-~/.local/state}/mediajob`.
    package var stateDirectory: URL {
        if let path = arguments.value("state-dir") ?? environment["MEDIAJOB_STATE_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return URL(fileURLWithPath: base).appendingPathComponent("mediajob")
    }

    /// The `--state-dir …` and `--store …` words to repeat in a suggested command, if given there
    /// (a password in the store's URL is left out: libpq finds it again in `~/.pgpass` or `PGPASSWORD`).
    package var stateDirectoryArgument: String {
        let folder = arguments.value("state-dir").map { " --state-dir \(shellQuoted($0))" } ?? ""
        let store = arguments.value("store").map { " --store \(shellQuoted(StoreLocation.withoutPassword($0)))" } ?? ""
        return folder + store
    }

    /// The submission strategy: `--strategy`, default `queue`.
    package func strategy() throws -> SubmissionStrategy {
        try arguments.choice("strategy", as: SubmissionStrategy.self) ?? .queue
    }

    /// Where jobs are kept: `--store`, else `MEDIAJOB_STORE`, else the state folder's SQLite store.
    package func storeLocation() throws -> StoreLocation {
        try StoreLocation.select(option: arguments.value("store"), environment: environment, stateDirectory: stateDirectory)
    }

    /// Opens the job store and a scheduler over it, and cleans up after finished jobs. Media
    /// commands open theirs with every media job kind registered (``openMediaScheduler(_:)``).
    /// - Parameters:
    ///   - probe: what the machine offers requests (the GPU, for media jobs).
    ///   - chunksAtOnce: how many chunks of a job this process runs at once.
    ///   - cleaning: whether to clean up after finished jobs now; a command that reads every job
    ///     anyway passes `false` and cleans with what it read (`JobScheduler.cleanFinishedWorkspaces(of:)`).
    package func openScheduler(probe: any ResourceProbe = FixedResourceProbe(), chunksAtOnce: Int = 1,
                               cleaning: Bool = true) throws -> JobScheduler {
        let folder = stateDirectory
        let location = try storeLocation()
        try DurableFiles.makeDirectory(folder)
        let store = try location.open()
        let maxJobs = try arguments.integer("max-jobs", in: 1...1024) ?? hostReport.defaultMaxJobs
        let scheduler = try JobScheduler(store: store, lockDirectory: folder.appendingPathComponent("locks"),
                                         probe: probe, maxConcurrentJobs: maxJobs, chunksAtOnce: chunksAtOnce,
                                         hostCondition: ThermalGuard(probe: hostProbe), workspacePrefix: "mediajob")
        if cleaning { try scheduler.cleanFinishedWorkspaces() }
        return scheduler
    }

    /// `--lease`: how long a chunk claimed from a PostgreSQL store is held without renewal, from
    /// 0.1 s to a day (default 30 s).
    package func leaseDuration() throws -> Duration {
        guard let text = arguments.value("lease") else { return .seconds(30) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 86_400 else {
            throw UsageError("--lease takes seconds between 0.1 and 86400, such as 30 or 2.5, got '\(text)'",
                             command: arguments.command)
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// Reads /proc and /sys, or the folder `MEDIAJOB_SYSFS_ROOT` names (tests imitate them there).
    package var hostProbe: HostProbe {
        HostProbe(root: URL(fileURLWithPath: environment["MEDIAJOB_SYSFS_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"))
    }

    /// What this machine offers, measured where the state folder lies.
    package var hostReport: HostReport {
        hostProbe.report(diskPath: stateDirectory)
    }

    /// Finds the job named by the single positional argument.
    package func namedJob(in scheduler: JobScheduler) throws -> JobRecord {
        try scheduler.job(matching: try arguments.single("JOB"))
    }
}

/// Quotes `text` for a shell when it needs it.
package func shellQuoted(_ text: String) -> String {
    let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+=:,@".unicodeScalars.contains($0) }
    return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
