/// What an input may be before any of this module's operations touches it.
///
/// Inputs are always opened through the `file` protocol only; ``formats`` narrows the containers
/// further. Playlists and indirections (HLS, concat, image sequences) are never on the list, so an
/// input cannot make FFmpeg read other files or the network.
public struct MediaLimits: Sendable, Codable, Equatable {
    /// The containers accepted by default: real media files, no playlists.
    public static let defaultFormats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,ogg,wav,flac,mp3,aac"

    /// The largest picture, in pixels (width × height), a decoder may produce. The default is
    /// FFmpeg's own ceiling, 16383 × 16383.
    public var maxPixels: Int
    /// FFmpeg's demuxer names that may open an input, comma-separated (`format_whitelist`).
    public var formats: String

    /// Creates limits.
    /// - Parameters:
    ///   - maxPixels: the largest picture a decoder may produce, in pixels.
    ///   - formats: the demuxers that may open an input, comma-separated.
    public init(maxPixels: Int = 268_402_689, formats: String = MediaLimits.defaultFormats) {
        self.maxPixels = maxPixels
        self.formats = formats
    }
}
