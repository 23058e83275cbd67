import Foundation
import Glibc

/// `mediajob-media`, the program beside `mediajob` that does the media commands, and
/// `mediajob-photo`, which does thumbnail runs of photos: `mediajob` links only the engine and the
/// stores, so that `jobs`, `status`, `cancel` and the like start without loading libvips, FFmpeg
/// and the ~190 libraries they bring (issue 15: 136 ms of CPU at start-up); `mediajob-photo` links
/// libvips without FFmpeg's ~95 (24.6 MiB resident before any work) and hands a run with anything
/// but photos to `mediajob-media`.
package enum MediaProgram {
    /// The file name of the program with every media command, in the folder of the running executable.
    package static let fileName = "mediajob-media"
    /// The file name of the program for thumbnail runs of photos, beside it.
    package static let photoFileName = "mediajob-photo"

    /// Replaces this process with `program arguments…` (``fileName`` or ``photoFileName``), keeping
    /// its id, environment (with ``startSettings`` added where unset), open descriptors and signal
    /// dispositions, so that a caller waiting on it or signalling it sees one process.
    /// - Returns: only when `program` cannot be started.
    /// - Throws: ``MediaProgramMissing`` saying where it was looked for and what to do.
    package static func takeOver(arguments: [String], program: String = fileName) throws -> Int32 {
        let path = try location(of: program)
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

    /// Where `program` is: beside the running executable, found through /proc/self/exe.
    package static func location(of program: String) throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(program).path
    }
}

/// `mediajob-media` or `mediajob-photo` could not be started for a media command.
package struct MediaProgramMissing: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String {
        let program = URL(fileURLWithPath: path).lastPathComponent
        return "this command needs \(path), which could not be started (\(reason)); install \(program) "
            + "in the same folder as mediajob (mediajob, mediajob-media and mediajob-photo are built by `swift build`)"
    }
}
