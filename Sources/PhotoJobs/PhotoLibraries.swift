import Foundation
import Vips

/// Starts libvips once per process, before the first photo call (FFmpeg, where a program has it,
/// starts in MediaJobs' `MediaLibraries`).
package enum PhotoLibraries {
    /// Initialises libvips with `modules`; later calls return at once. The first call sets `TMPDIR`
    /// to `temporaryDirectory` when given (see
    /// ``MediaEnvironment/startPhotoLibraries(temporaryDirectory:modules:)``).
    /// - Throws: ``VipsError`` when libvips cannot start.
    package static func initialize(temporaryDirectory: URL? = nil, modules: Vips.Modules = .all) throws {
        try Vips.initialize(temporaryDirectory: temporaryDirectory?.path, modules: modules)
    }
}
