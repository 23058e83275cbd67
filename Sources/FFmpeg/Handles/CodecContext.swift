import CFFmpegShim
import MediaInputLimits

/// An owned `AVCodecContext`, a decoder or an encoder, freed with `avcodec_free_context`.
final class CodecContext {
    /// The context; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// The file the codec reads or writes, for errors.
    let path: String

    /// Allocates a context for `codec`.
    init(codec: UnsafePointer<AVCodec>, path: String) {
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        pointer = context
        self.path = path
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Opens a decoder for `stream` of `input`.
    /// - Parameters:
    ///   - threads: decoding threads, 0 for FFmpeg's choice. Decoded pictures do not depend on it.
    ///   - strict: whether to fail on any damage the decoder detects (`err_detect explode`)
    ///     rather than conceal it.
    static func decoder(
        for stream: UnsafeMutablePointer<AVStream>, of input: InputFile, limits: MediaLimits, threads: Int,
        strict: Bool = false
    ) throws(FFmpegError) -> CodecContext {
        let parameters = stream.pointee.codecpar!
        let id = parameters.pointee.codec_id
        if parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            let pixels = Int(parameters.pointee.width) * Int(parameters.pointee.height)
            guard pixels <= limits.maxPixels else {
                throw FFmpegError(.tooManyPixels, operation: "decoder", path: input.path,
                                  reason: "\(parameters.pointee.width)×\(parameters.pointee.height) is \(pixels) pixels, "
                                      + "more than the limit of \(limits.maxPixels)")
            }
        }
        guard let codec = avcodec_find_decoder(id) else {
            throw FFmpegError(.unsupportedCodec, operation: "avcodec_find_decoder", path: input.path,
                              code: shim_AVERROR_DECODER_NOT_FOUND(),
                              reason: "no decoder for \(String(cString: avcodec_get_name(id)))")
        }
        let context = CodecContext(codec: codec, path: input.path)
        try check(avcodec_parameters_to_context(context.pointer, parameters), "avcodec_parameters_to_context",
                  path: input.path, kind: .unsupportedCodec)
        context.pointer.pointee.pkt_timebase = stream.pointee.time_base
        context.pointer.pointee.max_pixels = Int64(limits.maxPixels)
        context.pointer.pointee.thread_count = Int32(clamping: max(0, threads))
        if strict {
            context.pointer.pointee.err_recognition |= AV_EF_EXPLODE
        }
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", path: input.path,
                  kind: .unsupportedCodec)
        return context
    }

    /// Sends `packet` to the decoder, or `nil` to drain it.
    func send(_ packet: Packet?, stop: StopSignal) throws(FFmpegError) {
        let code = avcodec_send_packet(pointer, packet?.pointer)
        if code == shim_AVERROR_EOF() && packet == nil { return }
        try check(code, "avcodec_send_packet", path: path, kind: .corruptMedia, stop: stop)
    }

    /// Receives the next decoded frame.
    /// - Returns: `false` when the decoder needs more input or is drained.
    func receive(_ frame: Frame, stop: StopSignal) throws(FFmpegError) -> Bool {
        let code = avcodec_receive_frame(pointer, frame.pointer)
        if code == shim_AVERROR_EAGAIN() || code == shim_AVERROR_EOF() { return false }
        try check(code, "avcodec_receive_frame", path: path, kind: .corruptMedia, stop: stop)
        return true
    }

    /// Sends `frame` to the encoder, or `nil` to drain it.
    func send(_ frame: Frame?, stop: StopSignal) throws(FFmpegError) {
        let code = avcodec_send_frame(pointer, frame?.pointer)
        if code == shim_AVERROR_EOF() && frame == nil { return }
        try check(code, "avcodec_send_frame", path: path, kind: .encodeFailed, stop: stop)
    }

    /// Receives the next encoded packet.
    /// - Returns: `false` when the encoder needs more input or is drained.
    func receive(_ packet: Packet, stop: StopSignal) throws(FFmpegError) -> Bool {
        let code = avcodec_receive_packet(pointer, packet.pointer)
        if code == shim_AVERROR_EAGAIN() || code == shim_AVERROR_EOF() { return false }
        try check(code, "avcodec_receive_packet", path: path, kind: .encodeFailed, stop: stop)
        return true
    }
}
