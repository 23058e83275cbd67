import FFmpeg
import Foundation
import PhotoJobs

/// Starts libvips and FFmpeg once per process, before the first media call.
enum MediaLibraries {
    /// Initialises both libraries; later calls return at once. The first call sets `TMPDIR` to
    /// `temporaryDirectory` when given (see ``MediaEnvironment/startLibraries(temporaryDirectory:)``,
    /// the only caller that gives one, before other threads start).
    /// - Throws: ``VipsError`` when libvips cannot start.
    static func initialize(temporaryDirectory: URL? = nil) throws {
        try PhotoLibraries.initialize(temporaryDirectory: temporaryDirectory)
        FFmpeg.initialize()
    }
}

extension MediaEnvironment {
    /// Starts libvips and FFmpeg for this process with `temporaryDirectory`, the
    /// ``MediaEnvironment/temporaryDirectory`` of the environment its jobs will run with (`nil` keeps
    /// `TMPDIR`). It sets process environment variables (`TMPDIR`, `SVT_LOG`), which is safe only
    /// before other threads start: call it first thing, once. Jobs start the libraries themselves
    /// when it was not called, without a temporary folder.
    /// - Throws: ``VipsError`` when libvips cannot start.
    public static func startLibraries(temporaryDirectory: URL?) throws {
        try MediaLibraries.initialize(temporaryDirectory: temporaryDirectory)
    }
}
