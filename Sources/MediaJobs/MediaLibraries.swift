import FFmpeg
import Foundation
import Vips

/// Starts libvips and FFmpeg once per process, before the first media call.
enum MediaLibraries {
    /// Initialises both libraries. When `temporaryDirectory` (a job's workspace) is given, TMPDIR
    /// points there, so libvips' temporary files for large images land on the destination's disk
    /// inside the workspace; GLib reads TMPDIR when the first temporary file is made, which
    /// planning never does.
    /// - Throws: ``VipsError`` when libvips cannot start.
    static func initialize(temporaryDirectory: String? = nil) throws {
        if let temporaryDirectory { setenv("TMPDIR", temporaryDirectory, 1) }
        try Vips.initialize()
        FFmpeg.initialize()
    }
}
