import JobEngine
import PhotoJobs

extension MediaJobKinds {
    /// Registers every job kind on `scheduler`, each running with `environment`, under this
    /// program's own identifiers: `mediajob.<kind>.*`. Thumbnails of videos come from FFmpeg
    /// (``AssetInputs``).
    public static func register(on scheduler: JobScheduler, environment: MediaEnvironment) throws {
        try register(SelfTestJob(environment: environment), on: scheduler)
        try register(ExportJob(environment: environment), on: scheduler)
        try registerThumbnails(on: scheduler, environment: environment, videos: AssetInputs())
        try register(CompressJob(environment: environment), on: scheduler)
    }
}
