import FFmpeg
import Vips

/// Starts libvips and FFmpeg once per process, before the first media call.
enum MediaLibraries {
    /// Initialises both libraries. libvips' temporary files go to `temporaryDirectory` (a job's
    /// workspace) when the first call names one; later calls change nothing.
    /// - Throws: ``VipsError`` when libvips cannot start.
    static func initialize(temporaryDirectory: String? = nil) throws {
        try Vips.initialize(temporaryDirectory: temporaryDirectory)
        FFmpeg.initialize()
    }
}
