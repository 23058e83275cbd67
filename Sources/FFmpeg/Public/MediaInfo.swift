/// What ``MediaProbe`` learned about a file.
///
/// Times are in seconds on the file's own timeline (presentation timestamp × time base): for MP4
/// the first frame is usually at 0, for MPEG-TS at ``startTime``. Pass them back unchanged as
/// segment boundaries.
public struct MediaInfo: Sendable, Codable, Equatable {
    /// The container's duration.
    public var duration: Double
    /// The container's start time, 0 when unknown.
    public var startTime: Double
    /// FFmpeg's demuxer name, for example `mov,mp4,m4a,3gp,3g2,mj2`.
    public var formatName: String
    /// The main video stream, if any.
    public var video: VideoInfo?
    /// The main audio stream, if any.
    public var audio: AudioInfo?
    /// Every audio track, in file order (as `ffmpeg -map 0:a:N` counts them).
    public var audioTracks: [AudioInfo]
    /// The container's metadata (`ffprobe -show_format`'s tags): capture time, copyright,
    /// location, device, …
    public var tags: [String: String]
    /// The streams that are neither the main video nor audio (subtitles, data, attachments,
    /// further video), each as `stream 3: subtitle (subrip, fra)`.
    public var otherStreams: [String]
    /// Presentation times of the video keyframes in ascending order; empty unless scanned.
    public var keyframes: [Double]

    /// Creates a description.
    public init(duration: Double, startTime: Double = 0, formatName: String, video: VideoInfo?, audio: AudioInfo?,
                keyframes: [Double], audioTracks: [AudioInfo] = [], otherStreams: [String] = [],
                tags: [String: String] = [:]) {
        self.duration = duration
        self.startTime = startTime
        self.formatName = formatName
        self.video = video
        self.audio = audio
        self.audioTracks = audioTracks
        self.otherStreams = otherStreams
        self.tags = tags
        self.keyframes = keyframes
    }
}
