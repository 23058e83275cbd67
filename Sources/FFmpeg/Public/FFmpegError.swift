import CFFmpegShim
import Glibc
import MediaInputLimits
import TaskContract

/// An FFmpeg operation failed, or an input is not acceptable. Names the operation, the file, the
/// FFmpeg code and its text, and says what to do.
///
/// A stop asked for through a `shouldStop` closure surfaces as ``Kind-swift.enum/stopped``; that
/// is not a failure: check ``isStopped`` first and end the work as paused.
public struct FFmpegError: CategorizedError, CustomStringConvertible, Equatable {
    /// What went wrong, in the terms the caller acts on.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The `shouldStop` closure asked to stop.
        case stopped
        /// The input is not a media container on the whitelist, or not media at all.
        case unsupportedFormat
        /// The input's codec, or what the operation asks of it, is not supported.
        case unsupportedCodec
        /// The input has no video stream.
        case noVideoStream
        /// The input has no audio stream.
        case noAudioStream
        /// The picture is larger than ``MediaLimits/maxPixels``.
        case tooManyPixels
        /// The input is corrupt or truncated.
        case corruptMedia
        /// The input could not be read.
        case readFailed
        /// The output could not be written.
        case writeFailed
        /// The asked-for encoder is not in this FFmpeg build.
        case encoderUnavailable
        /// The encoder refused its settings or failed.
        case encodeFailed
        /// The asked-for range or edit does not fit the input.
        case invalidRequest
        /// Segments to join do not share their codec parameters.
        case incompatibleSegments
    }

    /// What went wrong.
    public var kind: Kind
    /// The failed step, for example `avformat_open_input`.
    public var operation: String
    /// The file the step worked on.
    public var path: String
    /// The FFmpeg error code (an `AVERROR` value), 0 when the failure is not FFmpeg's.
    public var code: Int32
    /// `av_strerror`'s text for ``code`` with FFmpeg's last logged message, or the reason in words.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: what went wrong.
    ///   - operation: the failed step.
    ///   - path: the file it worked on.
    ///   - code: the FFmpeg error code, 0 when there is none.
    ///   - reason: the reason in words.
    public init(_ kind: Kind, operation: String, path: String, code: Int32 = 0, reason: String) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// Whether this is a stop on purpose rather than a failure.
    public var isStopped: Bool { kind == .stopped }

    /// The POSIX `errno` behind ``code``, when it is one.
    public var posixCode: Int32? {
        let value = shim_AVUNERROR(code)
        return code < 0 && value > 0 && value < 4096 ? value : nil
    }

    /// The category stored with the failed job. A stop reports ``FailureCategory/internal``,
    /// because it is not a failure and must not be recorded as one: check ``isStopped`` first.
    public var category: FailureCategory {
        switch posixCode {
        case ENOSPC, EDQUOT: return .noSpace
        case ENOMEM, EMFILE, ENFILE: return .resource
        default: break
        }
        switch kind {
        case .unsupportedFormat, .unsupportedCodec, .noVideoStream, .noAudioStream, .tooManyPixels,
             .corruptMedia, .invalidRequest, .incompatibleSegments:
            return .invalidInput
        case .readFailed:
            return posixCode == ENOENT || posixCode == EISDIR ? .invalidInput : .io
        case .writeFailed:
            return .io
        case .stopped, .encoderUnavailable, .encodeFailed:
            return .internal
        }
    }

    /// What happened and what to do next, naming the file.
    public var message: String {
        switch (kind, category) {
        case (.stopped, _):
            return "work on \(path) was stopped on request; resume the job to continue"
        case (_, .noSpace):
            return "no space left on the device while writing \(path) (\(reason)); free some space, then resume"
        case (_, .resource):
            return "\(operation) ran out of resources on \(path) (\(reason)); retry when the machine is less busy"
        case (.unsupportedFormat, _):
            return "\(path) is not a media file in a supported container, or it is damaged (\(reason)); "
                + "use a video or audio file in one of these containers: \(MediaLimits.defaultFormats)"
        case (.unsupportedCodec, _):
            return "\(path) uses something this FFmpeg build cannot handle (\(operation): \(reason)); "
                + "convert it to H.264/AAC first"
        case (.noVideoStream, _):
            return "\(path) has no video stream; choose a video file"
        case (.noAudioStream, _):
            return "\(path) has \(reason == "no audio stream" ? reason : "no such audio stream (\(reason))"); "
                + "leave the audio out for this file"
        case (.tooManyPixels, _):
            return "\(path) is too large to decode (\(reason)); choose a smaller video or raise the pixel limit"
        case (.corruptMedia, _):
            return "\(path) is damaged or truncated (\(operation): \(reason)); copy or export the file again"
        case (.readFailed, _):
            return "could not read \(path) (\(operation): \(reason)); check that it exists and is readable"
        case (.writeFailed, _):
            return "could not write \(path) (\(operation): \(reason)); check the folder and its permissions, then resume"
        case (.encoderUnavailable, _):
            return "the encoder for \(path) is not available (\(reason)); choose libx264"
        case (.encodeFailed, _):
            return "encoding \(path) failed (\(operation): \(reason)); check the encoding settings"
        case (.invalidRequest, _):
            return "the request does not fit \(path): \(reason)"
        case (.incompatibleSegments, _):
            return "cannot join \(path) to the segments before it: \(reason); encode all segments with the same settings"
        }
    }

    /// The kind, the failed step with its FFmpeg code, and the message.
    public var description: String {
        code == 0 ? "\(kind.rawValue): \(message)" : "\(kind.rawValue) [\(operation) → \(code)]: \(message)"
    }
}
