/// How ``AudioTrack`` takes the audio of a range.
public enum AudioMode: Sendable, Codable, Equatable {
    /// Copies the packets as they are; the output container must take the codec.
    case copy
    /// Decodes, cuts to the sample and encodes AAC-LC with FFmpeg's native encoder.
    /// - Parameter bitrate: bits per second, for example 128_000.
    case aac(bitrate: Int)
}
