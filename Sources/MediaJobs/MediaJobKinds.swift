import JobEngine

/// Every job kind this program runs.
public enum MediaJobKinds {
    /// The memory one chunk of a media job may need at most: a libvips pipeline over a large
    /// photo (with its share of the 64 MiB operation cache), or a decoder, filters and one x264
    /// encoder on a 1080p segment. Jobs run no more chunks at once than usable memory holds.
    public static let memoryPerChunk: UInt64 = 512 << 20

    /// Registers every job kind on `scheduler`, each running with `environment`.
    public static func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws {
        try scheduler.register(SelfTestJob(environment: environment))
        try scheduler.register(ExportJob(environment: environment))
        try scheduler.register(ThumbnailJob(environment: environment))
        try scheduler.register(CompressJob(environment: environment))
    }
}
