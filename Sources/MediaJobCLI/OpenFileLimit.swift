import Glibc
import TaskContract

/// The process's limit on open files (`ulimit -n`), raised where it may be and checked before
/// any work starts.
///
/// Running out of descriptors mid-job is not a clean failure here: libdispatch, under Swift's
/// concurrency, reads `/proc` to watch its threads and ends the process when that open fails.
/// So the program raises its soft limit to the hard one, and refuses to start below ``minimum``.
package enum OpenFileLimit {
    /// Descriptors a job needs at the least: the store and its WAL, locks, pipes, the libraries'
    /// own files, and a few per chunk in flight.
    package static let minimum: rlim_t = 64

    /// Raises the soft limit to the hard limit when it is lower than ``minimum``.
    /// - Throws: ``LimitError`` when even the hard limit is below ``minimum``.
    package static func ensure() throws {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < minimum else { return }
        if limit.rlim_max >= minimum { // an unlimited hard limit is the largest value
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { return }
        }
        throw LimitError(current: limit.rlim_cur, hard: limit.rlim_max)
    }

    /// Descriptors set aside for the process itself (standard streams, the store and its WAL,
    /// locks, libdispatch, libvips' cache of open files), and those each chunk in flight may use.
    package static let reserved: rlim_t = 32
    package static let perChunk: rlim_t = 4

    /// How many chunks may be in flight at once within the current soft limit: at least one.
    package static var chunksAllowed: Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur > reserved + perChunk else { return 1 }
        return Int(min((limit.rlim_cur - reserved) / perChunk, rlim_t(Int.max)))
    }

    private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

    /// The open-file limit is too low to run a job safely.
    package struct LimitError: CategorizedError {
        var current: rlim_t
        var hard: rlim_t

        package var category: FailureCategory { .resource }

        package var message: String {
            "the open-file limit is \(current) (hard limit \(hard)) and mediajob needs at least \(OpenFileLimit.minimum); "
                + "raise it, for example with `ulimit -n 1024`, then run the command again"
        }
    }
}
