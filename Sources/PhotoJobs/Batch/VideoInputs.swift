import Vips

/// What an input that libvips' shrink-on-load thumbnail could not make is, and a video's frame:
/// FFmpeg's work, which the program running a thumbnail job supplies.
public protocol VideoInputs: Sendable {
    /// What the file at `path` is, judged by its content; a video's keyframes are listed (which
    /// can find a broken one) unless `scanKeyframes` is false.
    /// - Throws: why the file is neither a photo nor a video this program reads.
    func classify(_ path: String, settings: BatchSettings, scanKeyframes: Bool) throws -> InputKind

    /// The representative frame of the video at `path`, at most `maxDimension` pixels on its longest side.
    /// - Throws: why no frame could be made.
    func representativeFrame(of path: String, settings: BatchSettings, maxDimension: Int) throws -> VipsImage
}

/// What an input is: a photo libvips reads, or a video FFmpeg reads.
public enum InputKind: Equatable, Sendable {
    case photo
    case video
}
