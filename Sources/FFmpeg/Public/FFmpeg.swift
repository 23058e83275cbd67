import CFFmpeg
import CFFmpegShim
import Glibc

/// The FFmpeg libraries as a whole: one-time set-up and what this build can do.
///
/// Call ``initialize()`` once before any other API of this module; it is cheap to call again.
public enum FFmpeg {
    private static let initialized: Void = {
        // Nothing is printed: errors reach the caller as ``FFmpegError`` values carrying the last
        // message FFmpeg logged on the failing thread. Set MEDIAJOB_FFMPEG_LOG to also print it.
        shim_install_log_capture(AV_LOG_ERROR)
        // SVT-AV1 logs on its own, at info level unless its variable says otherwise.
        setenv("SVT_LOG", "1", 0)
        // x264's pictures stay on the transparent huge pages it asks for (`madvise`): keeping them
        // off saved 13–27 MiB of peak memory but cost a third of the system time and 2–7 % of
        // the CPU time of a 1080p compress (README, "Measured").
    }()

    /// Sets the libraries up for this process: logging at error level, captured rather than
    /// printed, so that errors can quote it (and `SVT_LOG=1`, errors only, unless already set).
    /// Idempotent and safe to call from any thread.
    public static func initialize() {
        _ = initialized
    }

    /// Gives the memory that malloc keeps after frees (a closed encoder's pictures) back to the
    /// system, in every arena, so that the next encoder's pictures do not come beside it.
    public static func releaseFreedMemory() {
        shim_release_freed_memory()
    }

    /// Whether this FFmpeg build has the encoder called `name` (`libx264`, `libx265`,
    /// `libaom-av1`, `libsvtav1`, `aac`).
    /// - Parameter name: FFmpeg's name of the encoder.
    public static func hasEncoder(_ name: String) -> Bool {
        avcodec_find_encoder_by_name(name) != nil
    }
}
