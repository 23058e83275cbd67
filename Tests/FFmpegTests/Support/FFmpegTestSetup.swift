import FFmpeg

/// The one place the tests initialise the FFmpeg bridge, once per process.
enum FFmpegTestSetup {
    /// Reach this before using the bridge.
    static let ready: Void = FFmpeg.initialize()
}
