import CFFmpegShim

/// The one checking funnel: every FFmpeg return code goes through here.
///
/// A negative `code` becomes an ``FFmpegError`` carrying `av_strerror`'s text and the last message
/// FFmpeg logged on this thread. The kind follows from the code where the code says it (a stop,
/// corrupt data, a missing demuxer or decoder, a full disk), otherwise from `kind`.
/// - Returns: `code` when it is not negative.
@discardableResult
func check(
    _ code: Int32, _ operation: String, path: String, kind: FFmpegError.Kind, stop: StopSignal? = nil
) throws(FFmpegError) -> Int32 {
    guard code < 0 else { return code }
    throw FFmpegError(code: code, operation: operation, path: path, kind: kind, stop: stop)
}

extension FFmpegError {
    /// The error for FFmpeg's `code`, classified, with its text and the thread's last log message.
    init(code: Int32, operation: String, path: String, kind: Kind, stop: StopSignal? = nil) {
        var resolved = kind
        if code == shim_AVERROR_EXIT() || stop?.isStopped == true {
            resolved = .stopped
        } else if code == shim_AVERROR_INVALIDDATA() && kind != .writeFailed && kind != .encodeFailed {
            resolved = kind == .unsupportedFormat ? .unsupportedFormat : .corruptMedia
        } else if code == shim_AVERROR_DEMUXER_NOT_FOUND() {
            resolved = .unsupportedFormat
        } else if code == shim_AVERROR_DECODER_NOT_FOUND() || code == shim_AVERROR_PATCHWELCOME() {
            resolved = .unsupportedCodec
        } else if code == shim_AVERROR_ENCODER_NOT_FOUND() {
            resolved = .encoderUnavailable
        }
        self.init(resolved, operation: operation, path: path, code: code, reason: Self.text(of: code))
    }

    /// `av_strerror`'s text for `code`, followed by FFmpeg's last logged message on this thread.
    static func text(of code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        shim_strerror(code, &buffer, buffer.count)
        let text = String(cBuffer: buffer)
        guard let logged = lastLogMessage() else { return text }
        return "\(text): \(logged)"
    }

    /// Takes FFmpeg's last logged error message on this thread, if any.
    static func lastLogMessage() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        guard shim_take_last_log(&buffer, buffer.count) > 0 else { return nil }
        return String(cBuffer: buffer)
    }
}
