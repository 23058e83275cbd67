import CFFmpegShim
import MediaInputLimits

/// An owned input `AVFormatContext`, opened through the `file` protocol only, with the format
/// whitelist of ``MediaLimits`` and the stop signal as interrupt callback; closed with
/// `avformat_close_input`.
final class InputFile {
    /// The context; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The path it was opened from.
    let path: String
    /// The signal its interrupt callback asks; kept alive with the context.
    let stop: StopSignal

    /// Opens `path` and reads its stream information.
    /// - Parameter strict: whether the demuxer should fail on damaged data (`err_detect explode`).
    init(path: String, limits: MediaLimits, stop: StopSignal, strict: Bool = false) throws(FFmpegError) {
        FFmpeg.initialize()
        _ = FFmpegError.lastLogMessage()
        self.path = path
        self.stop = stop
        guard let context = avformat_alloc_context() else {
            fatalError("avformat_alloc_context: out of memory")
        }
        stop.install(on: context)
        // Set on the context itself, not through options, so that they cannot be lost to a
        // misspelling; avformat_open_input frees them with the context on failure.
        context.pointee.protocol_whitelist = av_strdup("file")
        context.pointee.format_whitelist = av_strdup(limits.formats)
        if strict { context.pointee.error_recognition |= AV_EF_EXPLODE }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let code = avformat_open_input(&opened, fileURL(path), nil, nil)
        guard code >= 0, let opened else {
            // avformat_open_input frees the context on failure.
            var error = FFmpegError(code: code, operation: "avformat_open_input", path: path,
                                    kind: .unsupportedFormat, stop: stop)
            if code == shim_AVERROR(ENOENT) || code == shim_AVERROR(EACCES) || code == shim_AVERROR(EISDIR) {
                error.kind = .readFailed
            } else if code == shim_AVERROR(EINVAL), error.kind != .stopped {
                error.kind = .unsupportedFormat
                error.reason += " (the container is not one of \(limits.formats))"
            }
            throw error
        }
        pointer = opened
        try check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info", path: path,
                  kind: .corruptMedia, stop: stop)
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// The streams, in file order.
    var streamCount: Int32 { Int32(pointer.pointee.nb_streams) }

    /// Stream `index`; valid while this object lives.
    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        pointer.pointee.streams[Int(index)]!
    }

    /// The indexes of the streams of `type`, in file order, skipping attached pictures.
    func streams(of type: AVMediaType) -> [Int32] {
        (0..<streamCount).filter { index in
            let stream = stream(index)
            return stream.pointee.codecpar.pointee.codec_type == type
                && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
    }

    /// The index of the best stream of `type` (what players pick), skipping attached pictures.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let index = av_find_best_stream(pointer, type, -1, -1, nil, 0)
        guard index >= 0 else { return nil }
        if type == AVMEDIA_TYPE_VIDEO, stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            return nil
        }
        return index
    }

    /// The index of the best video stream, or ``FFmpegError/Kind-swift.enum/noVideoStream``.
    func videoStream() throws(FFmpegError) -> Int32 {
        guard let index = bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw FFmpegError(.noVideoStream, operation: "av_find_best_stream", path: path, reason: "no video stream")
        }
        return index
    }

    /// Reads only the streams in `kept`; the demuxer skips the others' data where it can.
    func keepOnly(_ kept: Set<Int32>) {
        for index in 0..<streamCount where !kept.contains(index) {
            stream(index).pointee.discard = AVDISCARD_ALL
        }
    }

    /// The container's duration in seconds, 0 when unknown.
    var duration: Double {
        let value = pointer.pointee.duration
        return value == shim_AV_NOPTS_VALUE() || value < 0 ? 0 : Double(value) / Double(AV_TIME_BASE)
    }

    /// The container's start time in seconds, 0 when unknown.
    var startTime: Double {
        let value = pointer.pointee.start_time
        return value == shim_AV_NOPTS_VALUE() ? 0 : Double(value) / Double(AV_TIME_BASE)
    }

    /// Seeks so that the next packets of `stream` start at a keyframe at or before `time` (in the
    /// stream's time base), or at the start of the file.
    ///
    /// Containers without an index (MPEG-TS) are searched by timestamp and may land after `time`;
    /// each landing is checked by reading up to the first keyframe, and the seek backs off
    /// further (1 s, 5 s, 30 s, then the start of the file) until it lands early enough.
    func seek(stream index: Int32, to time: Int64) throws(FFmpegError) {
        let timeBase = stream(index).pointee.time_base
        let packet = Packet()
        for backoff in [0.0, 1, 5, 30] {
            let target = time - timeBase.timestamp(backoff)
            guard try seekOnce(stream: index, to: target) else { break }
            var landed: Int64?
            while try read(into: packet) {
                guard packet.streamIndex == index, packet.isKeyframe else { continue }
                landed = packet.time
                break
            }
            if let landed, landed <= time {
                _ = try seekOnce(stream: index, to: target)
                return
            }
        }
        try seekToStart(stream: index)
    }

    /// One `av_seek_frame` to the last keyframe at or before `time`.
    /// - Returns: `false` when the container cannot seek there.
    private func seekOnce(stream index: Int32, to time: Int64) throws(FFmpegError) -> Bool {
        let code = av_seek_frame(pointer, index, time, AVSEEK_FLAG_BACKWARD)
        if code >= 0 { return true }
        try stop.check(path: path)
        return false
    }

    /// Goes back to the start of the file: to byte 0 where the container allows, else to the
    /// stream's first timestamp.
    private func seekToStart(stream index: Int32) throws(FFmpegError) {
        if av_seek_frame(pointer, -1, 0, AVSEEK_FLAG_BYTE) >= 0 { return }
        let start = stream(index).pointee.start_time
        try check(av_seek_frame(pointer, index, start == shim_AV_NOPTS_VALUE() ? 0 : start, AVSEEK_FLAG_BACKWARD),
                  "av_seek_frame", path: path, kind: .readFailed, stop: stop)
    }

    /// Reads the next packet into `packet`.
    /// - Returns: `false` at the end of the file.
    func read(into packet: Packet) throws(FFmpegError) -> Bool {
        packet.unref()
        let code = av_read_frame(pointer, packet.pointer)
        if code == shim_AVERROR_EOF() { return false }
        try check(code, "av_read_frame", path: path, kind: .readFailed, stop: stop)
        return true
    }
}
