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
        // x264 asks for transparent huge pages for its pictures, and a huge page is resident
        // whole: two 1080p segment encoders held 14 MiB more with them (README, "Measured").
        // Where the kernel refuses, memory stays as it was; nothing else depends on it.
        _ = shim_disable_transparent_huge_pages()
    }()

    /// Sets the libraries up for this process: logging at error level, captured rather than
    /// printed, so that errors can quote it (and `SVT_LOG=1`, errors only, unless already set),
    /// and the process's memory kept off transparent huge pages.
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
