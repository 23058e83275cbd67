import Foundation
import Glibc

/// `mediajob-media`, the program beside `mediajob` that does the media commands: `mediajob` links
/// only the engine and the stores, so that `jobs`, `status`, `cancel` and the like start without
/// loading libvips, FFmpeg and the ~190 libraries they bring (issue 15: 136 ms of CPU at start-up).
package enum MediaProgram {
    /// The program's file name, in the folder of the running executable.
    package static let fileName = "mediajob-media"

    /// Replaces this process with `mediajob-media arguments…`, keeping its id, environment (with
    /// `MALLOC_ARENA_MAX` added when unset), open descriptors and signal dispositions, so that a
    /// caller waiting on it or signalling it sees one process.
    /// - Returns: only when `mediajob-media` cannot be started.
    /// - Throws: ``MediaProgramMissing`` saying where it was looked for and what to do.
    package static func takeOver(arguments: [String]) throws -> Int32 {
        let path = try location()
        // glibc gives each thread that allocates its own arena, up to 8 per core, and keeps what is
        // freed in each: libvips' worker threads left 11 of them holding 39 MiB at the end of a
        // thumbnail run (issue 15). Two arenas cut that run's peak RSS from 111 to 101 MiB at no
        // measured cost in time (one arena saves no more). glibc reads the setting once, as the new program starts; a value the person
        // set is kept.
        setenv("MALLOC_ARENA_MAX", "2", 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw MediaProgramMissing(path: path, reason: String(cString: strerror(errno)))
    }

    /// Where `mediajob-media` is: beside the running executable, found through /proc/self/exe.
    package static func location() throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(fileName).path
    }
}

/// `mediajob-media` could not be started for a media command.
package struct MediaProgramMissing: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String {
        "this command needs \(path), which could not be started (\(reason)); install mediajob-media "
            + "in the same folder as mediajob (both are built by `swift build`)"
    }
}
