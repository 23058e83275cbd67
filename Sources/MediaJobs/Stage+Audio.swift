import TaskContract

extension Stage {
    /// Copying or re-encoding a video's audio (work: seconds of audio).
    static let audio = Stage(rawValue: "audio")
}
