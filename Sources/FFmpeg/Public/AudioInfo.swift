/// An audio stream as ``MediaProbe`` found it.
public struct AudioInfo: Sendable, Codable, Equatable {
    /// FFmpeg's codec name, for example `aac`.
    public var codecName: String
    /// Samples per second.
    public var sampleRate: Int
    /// The number of channels.
    public var channels: Int

    /// Creates a description.
    public init(codecName: String, sampleRate: Int, channels: Int) {
        self.codecName = codecName
        self.sampleRate = sampleRate
        self.channels = channels
    }
}
