import Foundation
import GPURender

/// What media jobs use of the process that runs them, given to each job kind when it is made,
/// so that no job code reaches a process global.
///
/// The program builds one at start-up: the renderer its GPU probing selected (asked for only
/// when a chunk may render on the GPU), the folder for the libraries' temporary files, the
/// memory its video encoders share, and the clock chunks wait by.
public struct MediaEnvironment: Sendable {
    /// The GPU renderer of this process, or `nil` to render on the CPU. Called when a chunk may
    /// render on the GPU; it is the provider's business to probe once.
    public var renderer: @Sendable () -> GPURenderer?
    /// Where libvips puts the temporary files of large images; `nil` keeps `TMPDIR`. Takes effect
    /// through ``startLibraries()``; the folder must exist by the time a job runs.
    public var temporaryDirectory: URL?
    /// The memory the segment encoders of every job in this process share (``EncoderBudget``).
    public var encoderBudget: EncoderBudget
    /// The clock chunks wait by.
    public var clock: any Clock<Duration>

    /// - Parameters:
    ///   - renderer: the GPU renderer provider; by default none, so every picture renders on the CPU.
    ///   - temporaryDirectory: where large images' temporary files go; `nil` keeps `TMPDIR`.
    ///   - encoderBudget: the memory segment encoders share; by default unlimited, leaving the
    ///     bound to how many chunks run at once.
    ///   - clock: the clock chunks wait by.
    public init(renderer: @escaping @Sendable () -> GPURenderer? = { nil }, temporaryDirectory: URL? = nil,
                encoderBudget: EncoderBudget = .unlimited(), clock: any Clock<Duration> = ContinuousClock()) {
        self.renderer = renderer
        self.temporaryDirectory = temporaryDirectory
        self.encoderBudget = encoderBudget
        self.clock = clock
    }

    /// Starts libvips and FFmpeg for this process with this environment's temporary folder. It
    /// sets process environment variables (`TMPDIR`, `SVT_LOG`), which is safe only before other
    /// threads start: call it first thing, once. Jobs start the libraries themselves when it was
    /// not called, without a temporary folder.
    /// - Throws: ``VipsError`` when libvips cannot start.
    public func startLibraries() throws {
        try MediaLibraries.initialize(temporaryDirectory: temporaryDirectory)
    }

    /// The renderer a chunk uses under `preference`: none for `off`, else this process's.
    func renderer(for preference: GPUPreference) -> GPURenderer? {
        preference == .off ? nil : renderer()
    }
}
