import FFmpeg
import Foundation
import GPURender
import JobEngine
import MediaJobs
import TaskContract
import Vips

/// What a command runs with: its parsed arguments, the environment and the console, and the
/// way to the job engine.
struct CommandContext: Sendable {
    let arguments: ParsedArguments
    let environment: [String: String]
    let console: Console

    /// What media jobs run with in this process: the GPU that probing selected (none under
    /// `--gpu off`, so that a worker started with it renders every job's pictures on the CPU, `auto`
    /// ones included), used by `--gpu auto` where it measured faster (``AutoRenderPaths``),
    /// libvips' temporary files in the state folder's `tmp`, video encoders within half of usable
    /// memory, the monotonic clock.
    var media: MediaEnvironment {
        let usesGPU = (try? gpuPreference()) != .off
        let (folder, environment) = (stateDirectory, environment)
        return MediaEnvironment(renderer: { usesGPU ? GPUSelection.current().renderer : nil }, gpuIsFaster: { operation in
            guard let renderer = GPUSelection.current().renderer,
                  let record = AutoRenderPaths.record(for: renderer, folder: folder, environment: environment) else { return true }
            return record.gpuIsFaster(for: operation)
        }, temporaryDirectory: stateDirectory.appendingPathComponent("tmp"),
           encoderBudget: .half(of: hostProbe.memory().usableBytes))
    }

    /// Whether `--json` was given.
    var json: Bool { arguments.has("json") }

    /// The state folder: `--state-dir`, else `MEDIAJOB_STATE_DIR`, else
    /// `${XDG_STATE_HOME:-~/.local/state}/mediajob`.
    var stateDirectory: URL {
        if let path = arguments.value("state-dir") ?? environment["MEDIAJOB_STATE_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return URL(fileURLWithPath: base).appendingPathComponent("mediajob")
    }

    /// The `--state-dir …` and `--store …` words to repeat in a suggested command, if given there
    /// (a password in the store's URL is left out: libpq finds it again in `~/.pgpass` or `PGPASSWORD`).
    var stateDirectoryArgument: String {
        let folder = arguments.value("state-dir").map { " --state-dir \(shellQuoted($0))" } ?? ""
        let store = arguments.value("store").map { " --store \(shellQuoted(StoreLocation.withoutPassword($0)))" } ?? ""
        return folder + store
    }

    /// The submission strategy: `--strategy`, default `queue`.
    func strategy() throws -> SubmissionStrategy {
        try arguments.choice("strategy", as: SubmissionStrategy.self) ?? .queue
    }

    /// Where jobs are kept: `--store`, else `MEDIAJOB_STORE`, else the state folder's SQLite store.
    func storeLocation() throws -> StoreLocation {
        try StoreLocation.select(option: arguments.value("store"), environment: environment, stateDirectory: stateDirectory)
    }

    /// Opens the job store and a scheduler over it, with every job kind registered, and cleans up
    /// after finished jobs.
    func openScheduler() throws -> JobScheduler {
        let folder = stateDirectory
        let location = try storeLocation()
        try DurableFiles.makeDirectory(folder)
        if let temporary = media.temporaryDirectory { try DurableFiles.makeDirectory(temporary) }
        let store = try location.open()
        let maxJobs = try arguments.integer("max-jobs", in: 1...1024) ?? hostReport.defaultMaxJobs
        let probe = GPUResourceProbe()
        let scheduler = try JobScheduler(store: store, lockDirectory: folder.appendingPathComponent("locks"),
                                         probe: probe, maxConcurrentJobs: maxJobs, chunksAtOnce: chunkParallelism,
                                         hostCondition: ThermalGuard(probe: hostProbe), workspacePrefix: "mediajob")
        try MediaJobKinds.register(on: scheduler, environment: media)
        try scheduler.cleanFinishedWorkspaces()
        return scheduler
    }

    /// `--lease`: how long a chunk claimed from a PostgreSQL store is held without renewal, from
    /// 0.1 s to a day (default 30 s).
    func leaseDuration() throws -> Duration {
        guard let text = arguments.value("lease") else { return .seconds(30) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 86_400 else {
            throw UsageError("--lease takes seconds between 0.1 and 86400, such as 30 or 2.5, got '\(text)'",
                             command: arguments.command)
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// The inputs (files and folders) and `--output DIR` of a batch command.
    func batch() throws -> (items: [InputItem], output: String) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError("give at least one photo, video or folder", command: arguments.command)
        }
        guard let output = arguments.value("output") else {
            throw UsageError("--output DIR is required", command: arguments.command)
        }
        return (try InputCollector.collect(arguments.positionals, keepingMissing: arguments.has("skip-bad")),
                URL(fileURLWithPath: output).standardizedFileURL.path)
    }

    /// The settings media jobs share, for a result at `output`: `--overwrite`, `--skip-bad`,
    /// `--max-pixels` (else the libraries' default) and `--gpu`.
    func batchSettings(output: String) throws -> BatchSettings {
        let pixels = try arguments.integer("max-pixels", in: 1...1 << 40)
        return BatchSettings(output: output, overwrite: arguments.has("overwrite"), skipBad: arguments.has("skip-bad"),
                             imageLimits: pixels.map { ImageLimits(maxPixels: $0) } ?? ImageLimits(),
                             mediaLimits: pixels.map { MediaLimits(maxPixels: $0) } ?? MediaLimits(), gpu: try gpuPreference())
    }

    /// `--format` as an image format, in any familiar spelling (`jpg`, `JPEG`), if given.
    func imageFormat() throws -> ImageFormat? {
        guard let text = arguments.value("format") else { return nil }
        guard let format = ImageFormat(spelling: text) else {
            let names = ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--format must be one of \(names), got '\(text)'", command: arguments.command)
        }
        return format
    }

    /// Reads /proc and /sys, or the folder `MEDIAJOB_SYSFS_ROOT` names (tests imitate them there).
    var hostProbe: HostProbe {
        HostProbe(root: URL(fileURLWithPath: environment["MEDIAJOB_SYSFS_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"))
    }

    /// `--gpu`, default `auto`.
    func gpuPreference() throws -> GPUPreference {
        try arguments.choice("gpu", as: GPUPreference.self) ?? .auto
    }

    /// With `--verbose`, says on standard error where pictures will render under `preference`
    /// and, when not on a GPU, why (GPU probing happens here, once per process). Quiet otherwise:
    /// `auto` renders where it can, `on` is refused without a GPU, and `off` is what was asked;
    /// `mediajob probe` and `mediajob status JOB` tell where.
    func announceRendering(_ preference: GPUPreference) {
        guard preference != .off, arguments.has("verbose") else { return }
        let selection = GPUSelection.current()
        console.err(selection.renderer.map { "Rendering on \($0.device.name) (Vulkan)." }
            ?? "Rendering on the CPU: \(selection.report.reason).")
    }

    /// What this machine offers, measured where the state folder lies.
    var hostReport: HostReport {
        hostProbe.report(diskPath: stateDirectory)
    }

    /// How many chunks of a job this process runs at once, decided when it runs the job (never
    /// stored with it): bounded by usable CPUs, memory and the open-file limit.
    var chunkParallelism: Int {
        min(hostReport.parallelism(memoryPerChunk: MediaJobKinds.memoryPerChunk), OpenFileLimit.chunksAllowed)
    }

    /// Finds the job named by the single positional argument.
    func namedJob(in scheduler: JobScheduler) throws -> JobRecord {
        try scheduler.job(matching: try arguments.single("JOB"))
    }
}

/// Quotes `text` for a shell when it needs it.
func shellQuoted(_ text: String) -> String {
    let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+=:,@".unicodeScalars.contains($0) }
    return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
