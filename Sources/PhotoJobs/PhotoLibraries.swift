import Foundation
import Vips

/// Starts libvips once per process, before the first photo call (FFmpeg, where a program has it,
/// starts in MediaJobs' `MediaLibraries`).
package enum PhotoLibraries {
    /// Initialises libvips; later calls return at once. The first call sets `TMPDIR` to
    /// `temporaryDirectory` when given (see ``MediaEnvironment/startPhotoLibraries(temporaryDirectory:)``).
    /// - Throws: ``VipsError`` when libvips cannot start.
    package static func initialize(temporaryDirectory: URL? = nil) throws {
        try Vips.initialize(temporaryDirectory: temporaryDirectory?.path)
    }
}
