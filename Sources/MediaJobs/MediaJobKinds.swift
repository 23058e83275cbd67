import JobEngine
import TaskContract

/// Every job kind this program runs.
public enum MediaJobKinds {
    /// The memory one chunk of a media job may need at most: a libvips pipeline over a large
    /// photo (with its share of the 64 MiB operation cache), or a decoder, filters and one x264
    /// encoder on a 1080p segment. Jobs run no more chunks at once than usable memory holds.
    public static let memoryPerChunk: UInt64 = 512 << 20

    /// Registers every job kind on `scheduler`, each running with `environment`, under this
    /// program's own identifiers: `mediajob.<kind>.*`.
    public static func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws {
        try register(SelfTestJob(environment: environment), on: scheduler)
        try register(ExportJob(environment: environment), on: scheduler)
        try register(ThumbnailJob(environment: environment), on: scheduler)
        try register(CompressJob(environment: environment), on: scheduler)
    }

    /// The permitted identifier of this program's kind called `kind`: `mediajob.<kind>.*`.
    public static func permitted(_ kind: String) throws -> TaskIdentifier {
        try TaskIdentifier("mediajob.\(kind).*")
    }

    /// A fresh identifier for one job of this program's kind called `kind`: `mediajob.<kind>.<uuid>`.
    public static func identifier(_ kind: String) throws -> TaskIdentifier {
        try permitted(kind).unique()
    }

    private static func register<Kind: JobKind>(_ kind: Kind, on scheduler: JobScheduler) throws {
        try scheduler.register(kind, permitted: permitted(kind.name))
    }
}
