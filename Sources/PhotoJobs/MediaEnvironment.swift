import Foundation
import GPURender
import Vips

/// What media jobs use of the process that runs them, given to each job kind when it is made,
/// so that no job code reaches a process global.
///
/// The program builds one at start-up: the renderer its GPU probing selected (asked for only
/// when a chunk may render on the GPU), which operations `--gpu auto` renders there, the folder
/// for the libraries' temporary files, the memory its video encoders share, and the clock chunks
/// wait by.
public struct MediaEnvironment: Sendable {
    /// The GPU renderer of this process, or `nil` to render on the CPU. Called when a chunk may
    /// render on the GPU; it is the provider's business to probe once.
    public var renderer: @Sendable () -> GPURenderer?
    /// Whether `--gpu auto` renders `operation` on ``renderer``'s GPU (asked only when there is
    /// one): where it measured faster than the CPU.
    public var gpuIsFaster: @Sendable (RenderOperation) -> Bool
    /// Where libvips puts the temporary files of large images; `nil` keeps `TMPDIR`. Takes effect
    /// when the program gives the same folder to ``startLibraries(temporaryDirectory:)``; the folder
    /// must exist by the time a job runs.
    public var temporaryDirectory: URL?
    /// The memory the segment encoders of every job in this process share (``EncoderBudget``).
    public var encoderBudget: EncoderBudget
    /// The clock chunks wait by.
    public var clock: any Clock<Duration>

    /// - Parameters:
    ///   - renderer: the GPU renderer provider; by default none, so every picture renders on the CPU.
    ///   - gpuIsFaster: where `--gpu auto` uses the GPU; by default for every operation.
    ///   - temporaryDirectory: where large images' temporary files go; `nil` keeps `TMPDIR`.
    ///   - encoderBudget: the memory segment encoders share; by default unlimited, leaving the
    ///     bound to how many chunks run at once.
    ///   - clock: the clock chunks wait by.
    public init(renderer: @escaping @Sendable () -> GPURenderer? = { nil },
                gpuIsFaster: @escaping @Sendable (RenderOperation) -> Bool = { _ in true }, temporaryDirectory: URL? = nil,
                encoderBudget: EncoderBudget = .unlimited(), clock: any Clock<Duration> = ContinuousClock()) {
        self.renderer = renderer
        self.gpuIsFaster = gpuIsFaster
        self.temporaryDirectory = temporaryDirectory
        self.encoderBudget = encoderBudget
        self.clock = clock
    }

    /// Starts libvips for this process with `temporaryDirectory`, the ``temporaryDirectory`` of the
    /// environment its jobs will run with (`nil` keeps `TMPDIR`), in a program that runs photo jobs
    /// only (MediaJobs' `startLibraries(temporaryDirectory:)` starts FFmpeg too), with libvips'
    /// plugin `modules` (``ThumbnailJob/vipsModules(for:format:)``). It sets `TMPDIR` and
    /// `VIPSHOME`, which is safe only before other threads start: call it first thing, once.
    /// - Throws: ``VipsError`` when libvips cannot start.
    public static func startPhotoLibraries(temporaryDirectory: URL?, modules: Vips.Modules) throws {
        try PhotoLibraries.initialize(temporaryDirectory: temporaryDirectory, modules: modules)
    }

    /// The renderer a chunk doing `operation` uses under `preference`: none for `off`; this
    /// process's for `on`; for `auto`, this process's where the GPU is faster for `operation`.
    package func renderer(for preference: GPUPreference, _ operation: RenderOperation) -> GPURenderer? {
        switch preference {
        case .off: nil
        case .on: renderer()
        case .auto: renderer().flatMap { gpuIsFaster(operation) ? $0 : nil }
        }
    }
}
