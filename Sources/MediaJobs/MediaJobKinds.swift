import JobEngine

/// Every job kind this program runs.
public enum MediaJobKinds {
    /// The memory one chunk of a media job may need at most: a libvips pipeline over a large
    /// photo (with its share of the 64 MiB operation cache), or a decoder, filters and one x264
    /// encoder on a 1080p segment. Jobs run no more chunks at once than usable memory holds.
    public static let memoryPerChunk: UInt64 = 512 << 20

    /// Registers every job kind on `scheduler`.
    public static func register(on scheduler: JobScheduler) throws {
        try scheduler.register(SelfTestJob())
        try scheduler.register(ExportJob())
        try scheduler.register(ThumbnailJob())
        try scheduler.register(CompressJob())
    }
}
