import JobEngine

/// Every job kind this program runs.
public enum MediaJobKinds {
    /// Registers every job kind on `scheduler`.
    public static func register(on scheduler: JobScheduler) throws {
        try scheduler.register(SelfTestJob())
        try scheduler.register(ExportJob())
        try scheduler.register(ThumbnailJob())
        try scheduler.register(CompressJob())
    }
}
