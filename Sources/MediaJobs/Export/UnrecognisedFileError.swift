import TaskContract

/// A file that neither libvips nor FFmpeg (within its container whitelist) recognises by its
/// content: text, a playlist, a format this program does not take, whatever the file's name says.
public struct UnrecognisedFileError: CategorizedError, Equatable {
    /// The file.
    public var path: String

    public var category: FailureCategory { .invalidInput }

    public var message: String {
        "'\(path)' is neither a photo nor a video this program reads (judged by its content, not its name). "
            + "Use JPEG, PNG, WebP, AVIF/HEIF, TIFF or GIF photos, or MP4, MOV, MKV, WebM, AVI or MPEG-TS videos."
    }
}
