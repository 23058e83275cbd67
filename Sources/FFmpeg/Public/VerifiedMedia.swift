/// What ``MediaVerifier`` found in a file it decoded completely without error.
public struct VerifiedMedia: Sendable, Codable, Equatable {
    /// The number of decoded video frames; 0 without video.
    public var frames: Int
    /// The container's duration in seconds.
    public var duration: Double
    /// The video width in pixels; 0 without video.
    public var width: Int
    /// The video height in pixels; 0 without video.
    public var height: Int
    /// Whether the file has an audio stream (which decoded without error).
    public var hasAudio: Bool

    /// Creates a description.
    public init(frames: Int, duration: Double, width: Int, height: Int, hasAudio: Bool) {
        self.frames = frames
        self.duration = duration
        self.width = width
        self.height = height
        self.hasAudio = hasAudio
    }
}
