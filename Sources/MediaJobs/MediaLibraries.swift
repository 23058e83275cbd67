import FFmpeg
import Foundation
import Vips

/// Starts libvips and FFmpeg once per process, before the first media call.
enum MediaLibraries {
    /// Initialises both libraries; later calls return at once. The first call sets `TMPDIR` to
    /// `temporaryDirectory` when given (see ``MediaEnvironment/startLibraries(temporaryDirectory:)``,
    /// the only caller that gives one, before other threads start).
    /// - Throws: ``VipsError`` when libvips cannot start.
    static func initialize(temporaryDirectory: URL? = nil) throws {
        try Vips.initialize(temporaryDirectory: temporaryDirectory?.path)
        FFmpeg.initialize()
    }
}
