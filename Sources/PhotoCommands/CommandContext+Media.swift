import Foundation
import GPURender
import JobEngine
import MediaInputLimits
import MediaJobCLI
import PhotoJobs
import Vips

/// What media commands add to their context: the media libraries' environment, their scheduler
/// with the program's job kinds, and the options only they take.
extension CommandContext {
    /// What media jobs run with in this process: the GPU that probing selected (none under
    /// `--gpu off`, so that a worker started with it renders every job's pictures on the CPU, `auto`
    /// ones included), used by `--gpu auto` where `kinds` says it is faster,
    /// libvips' temporary files in the state folder's `tmp`, video encoders within
    /// ``encoderBudget()``, the monotonic clock.
    ///
    /// Built once per command, by ``openMediaScheduler(_:)``, so that every job of the process shares
    /// one encoder budget; building it reads the host's memory (/proc, the cgroup's files). GPU probing
    /// and `--gpu auto`'s figures are asked for only when a chunk may render, and kept for the process.
    /// - Throws: ``UsageError`` when `MEDIAJOB_ENCODER_MEMORY` is not a size.
    private func media(_ kinds: any ProgramJobKinds) throws -> MediaEnvironment {
        let encoderBudget = try encoderBudget()
        let usesGPU = (try? gpuPreference()) != .off
        let (folder, environment) = (stateDirectory, environment)
        return MediaEnvironment(renderer: { usesGPU ? GPUSelection.current().renderer : nil }, gpuIsFaster: { operation in
            guard let renderer = GPUSelection.current().renderer else { return true }
            return kinds.gpuIsFaster(operation, on: renderer, stateDirectory: folder, environment: environment)
        }, temporaryDirectory: mediaTemporaryDirectory, encoderBudget: encoderBudget)
    }

    /// Where libvips puts the temporary files of large images: the state folder's `tmp`.
    package var mediaTemporaryDirectory: URL {
        stateDirectory.appendingPathComponent("tmp")
    }

    /// Opens the job store and a scheduler over it with `kinds` registered, GPU probing and chunk
    /// parallelism for media, and cleans up after finished jobs. A command opens one: its jobs run
    /// with the one ``media(_:)`` environment built here.
    /// - Throws: ``UsageError`` when `MEDIAJOB_ENCODER_MEMORY` is not a size, before the store is opened.
    package func openMediaScheduler(_ kinds: any ProgramJobKinds) throws -> JobScheduler {
        let media = try media(kinds)
        let scheduler = try openScheduler(probe: GPUResourceProbe(), chunksAtOnce: chunkParallelism)
        if let temporary = media.temporaryDirectory { try DurableFiles.makeDirectory(temporary) }
        try kinds.register(on: scheduler, environment: media)
        return scheduler
    }

    /// The inputs (files and folders) and `--output DIR` of a batch command.
    package func batch() throws -> (items: [InputItem], output: String) {
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
    package func batchSettings(output: String) throws -> BatchSettings {
        let pixels = try arguments.integer("max-pixels", in: 1...1 << 40)
        return BatchSettings(output: output, overwrite: arguments.has("overwrite"), skipBad: arguments.has("skip-bad"),
                             imageLimits: pixels.map { ImageLimits(maxPixels: $0) } ?? ImageLimits(),
                             mediaLimits: pixels.map { MediaLimits(maxPixels: $0) } ?? MediaLimits(), gpu: try gpuPreference())
    }

    /// `--format` as an image format, in any familiar spelling (`jpg`, `JPEG`), if given.
    package func imageFormat() throws -> ImageFormat? {
        guard let text = arguments.value("format") else { return nil }
        guard let format = ImageFormat(spelling: text) else {
            let names = ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--format must be one of \(names), got '\(text)'", command: arguments.command)
        }
        return format
    }

    /// `--gpu`, default `auto`.
    package func gpuPreference() throws -> GPUPreference {
        try arguments.choice("gpu", as: GPUPreference.self) ?? .auto
    }

    /// With `--verbose`, says on standard error where pictures will render under `preference`
    /// and, when not on a GPU, why (GPU probing happens here, once per process). Quiet otherwise:
    /// `auto` renders where it can, `on` is refused without a GPU, and `off` is what was asked;
    /// `mediajob probe` and `mediajob status JOB` tell where.
    package func announceRendering(_ preference: GPUPreference) {
        guard preference != .off, arguments.has("verbose") else { return }
        let selection = GPUSelection.current()
        console.err(selection.renderer.map { "Rendering on \($0.device.name) (Vulkan)." }
            ?? "Rendering on the CPU: \(selection.report.reason).")
    }

    /// How many chunks of a job this process runs at once, decided when it runs the job (never
    /// stored with it): bounded by usable CPUs, memory and the open-file limit.
    package var chunkParallelism: Int {
        min(hostReport.parallelism(memoryPerChunk: MediaJobKinds.memoryPerChunk), OpenFileLimit.chunksAllowed)
    }
}
