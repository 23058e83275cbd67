import Foundation
import JobEngine
import MediaJobCLI

/// The `main` of `mediajob-media` and `mediajob-photo`, after what is the program's own.
package enum MediaProgramMain {
    /// Sets libvips' process settings (before any thread starts), arms the fault points the crash
    /// and I/O-error tests name, and runs the command line with `media`'s work.
    /// - Returns: the exit code.
    package static func run(_ media: any MediaWork) async -> Int32 {
        // Jobs run one chunk per usable CPU; one libvips thread per chunk keeps the cores from being
        // oversubscribed (measured: thumbnails of 50 photos 10 % faster than with libvips' own threads).
        setenv("VIPS_CONCURRENCY", "1", 0)
        // libvips prints decoder warnings itself; the errors they lead to are reported with the file's name.
        setenv("VIPS_WARNING", "0", 0)
        // The crash and I/O-error tests stop it at a named durable step (as in mediajob's main).
        FaultPoints.arm(ProcessInfo.processInfo.environment["MEDIAJOB_FAULT"])
        return await MediaJobCLI.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                                      media: media)
    }
}
