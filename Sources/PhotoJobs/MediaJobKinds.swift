import JobEngine
import TaskContract

/// This program's job kinds: their identifiers, what a chunk may need, and the thumbnail kind's
/// registration (MediaJobs registers every kind).
public enum MediaJobKinds {
    /// The memory one chunk of a media job may need at most: a libvips pipeline over a large
    /// photo (with its share of the 64 MiB operation cache), or a decoder, filters and one x264
    /// encoder on a 1080p segment. Jobs run no more chunks at once than usable memory holds.
    public static let memoryPerChunk: UInt64 = 512 << 20

    /// Registers the thumbnail kind on `scheduler`, running with `environment` and taking what
    /// libvips cannot thumbnail to `videos`, under `mediajob.thumbnail.*`.
    public static func registerThumbnails(on scheduler: JobScheduler, environment: MediaEnvironment,
                                          videos: any VideoInputs) throws {
        try register(ThumbnailJob(environment: environment, videos: videos), on: scheduler)
    }

    /// The permitted identifier of this program's kind called `kind`: `mediajob.<kind>.*`.
    public static func permitted(_ kind: String) throws -> TaskIdentifier {
        try TaskIdentifier("mediajob.\(kind).*")
    }

    /// A fresh identifier for one job of this program's kind called `kind`: `mediajob.<kind>.<uuid>`.
    public static func identifier(_ kind: String) throws -> TaskIdentifier {
        try permitted(kind).unique()
    }

    /// Registers `kind` on `scheduler` under its own identifiers.
    package static func register<Kind: JobKind>(_ kind: Kind, on scheduler: JobScheduler) throws {
        try scheduler.register(kind, permitted: permitted(kind.name))
    }
}
