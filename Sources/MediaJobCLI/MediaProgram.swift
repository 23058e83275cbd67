import Foundation
import Glibc

/// `mediajob-media`, the program beside `mediajob` that does the media commands: `mediajob` links
/// only the engine and the stores, so that `jobs`, `status`, `cancel` and the like start without
/// loading libvips, FFmpeg and the ~190 libraries they bring (issue 15: 136 ms of CPU at start-up).
package enum MediaProgram {
    /// The program's file name, in the folder of the running executable.
    package static let fileName = "mediajob-media"

    /// Replaces this process with `mediajob-media arguments…`, keeping its id, environment (with
    /// ``startSettings`` added where unset), open descriptors and signal dispositions, so that a
    /// caller waiting on it or signalling it sees one process.
    /// - Returns: only when `mediajob-media` cannot be started.
    /// - Throws: ``MediaProgramMissing`` saying where it was looked for and what to do.
    package static func takeOver(arguments: [String]) throws -> Int32 {
        let path = try location()
        var current: [String] = []
        var entry = environ
        while let text = entry.pointee {
            current.append(String(cString: text))
            entry += 1
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment(from: current).map { strdup($0) } + [nil]
        execve(path, argv, envp)
        throw MediaProgramMissing(path: path, reason: String(cString: strerror(errno)))
    }

    /// Settings for the libraries `mediajob-media` loads, which they read once as it starts; a value
    /// the person set is kept.
    package static let startSettings: KeyValuePairs<String, String> = [
        // glibc gives each thread that allocates its own arena, up to 8 per core, and keeps what is
        // freed in each: libvips' worker threads left 11 of them holding 39 MiB at the end of a
        // thumbnail run (issue 15). Two arenas cut that run's peak RSS from 111 to 101 MiB at no
        // measured cost in time (one arena saves no more).
        "MALLOC_ARENA_MAX": "2",
        // libavfilter loads OpenBLAS (through libsphinxbase), whose constructor starts a thread per
        // core but one that spins waiting for BLAS work; nothing mediajob does calls BLAS.
        "OPENBLAS_NUM_THREADS": "1",
    ]

    /// The environment `mediajob-media` starts with: `current` (`NAME=value` entries, in order) and
    /// after it each of ``startSettings`` that `current` does not name.
    package static func environment(from current: [String]) -> [String] {
        let named = Set(current.map { $0.prefix { $0 != "=" } })
        return current + startSettings.filter { !named.contains(Substring($0.key)) }.map { "\($0.key)=\($0.value)" }
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
