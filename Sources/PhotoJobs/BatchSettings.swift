import Foundation
import JobEngine
import MediaInputLimits
import Vips

/// The settings every media job kind shares: where the result goes, what happens to an existing
/// one and to bad items, how large an input may be, and where pictures may render.
public struct BatchSettings: Codable, Sendable, Equatable {
    /// Where the result goes: the package (export) or the folder to create (thumbnail, compress).
    public var output: String
    /// Whether an existing result at ``output`` may be replaced.
    public var overwrite: Bool
    /// Skip bad items (and list them with the result) instead of failing the job.
    public var skipBad: Bool
    /// The largest image an input may be.
    public var imageLimits: ImageLimits
    /// The largest video picture, and the containers, an input may have.
    public var mediaLimits: MediaLimits
    /// Where pictures may render.
    public var gpu: GPUPreference

    public init(output: String, overwrite: Bool = false, skipBad: Bool = false,
                imageLimits: ImageLimits = ImageLimits(), mediaLimits: MediaLimits = MediaLimits(),
                gpu: GPUPreference = .auto) {
        self.output = output
        self.overwrite = overwrite
        self.skipBad = skipBad
        self.imageLimits = imageLimits
        self.mediaLimits = mediaLimits
        self.gpu = gpu
    }

    /// The plan of a job with these settings: `chunks`, published at ``output``, and packaging
    /// that is `finalizeWork` (see ``JobPlan/finalizeWork``).
    package func plan(_ chunks: [PlannedChunk], finalizeWork: Double = 1) -> JobPlan {
        JobPlan(destination: URL(fileURLWithPath: output), chunks: chunks, overwrite: overwrite, finalizeWork: finalizeWork)
    }
}
