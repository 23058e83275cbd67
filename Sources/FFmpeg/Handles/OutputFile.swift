import CFFmpegShim

/// An owned output `AVFormatContext` writing one file through the `file` protocol, with
/// `fflags +bitexact` (no encoder tag, no creation time) so equal packets make equal bytes.
/// The file is closed by ``finish()``; `deinit` closes it if an error came first and frees the
/// context with `avformat_free_context`.
final class OutputFile {
    /// The context; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The path being written.
    let path: String
    let stop: StopSignal
    private var isOpen = false

    /// Creates the muxer for `path`, choosing the container from `format` or the file's extension.
    init(path: String, format: String?, stop: StopSignal) throws(FFmpegError) {
        FFmpeg.initialize()
        _ = FFmpegError.lastLogMessage()
        self.path = path
        self.stop = stop
        var context: UnsafeMutablePointer<AVFormatContext>?
        let code = avformat_alloc_output_context2(&context, nil, format, fileURL(path))
        guard code >= 0, let context else {
            throw FFmpegError(.invalidRequest, operation: "avformat_alloc_output_context2", path: path, code: code,
                              reason: "no container for this file name; use .mp4, .m4a or .mka")
        }
        pointer = context
        pointer.pointee.flags |= AVFMT_FLAG_BITEXACT
        pointer.pointee.interrupt_callback = stop.interruptCallback
        // Muxers that reopen their output (MP4's faststart pass) may use local files only.
        pointer.pointee.protocol_whitelist = av_strdup("file")
    }

    deinit {
        if isOpen { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }

    /// Whether the container can hold `codec`.
    func accepts(_ codec: AVCodecID) -> Bool {
        avformat_query_codec(pointer.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Whether encoders for this container must put their headers in extradata.
    var wantsGlobalHeader: Bool { pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Adds a stream that copies `parameters` (remuxing), in `timeBase` until the header is written.
    func addStream(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(FFmpegError)
        -> UnsafeMutablePointer<AVStream>
    {
        let stream = try newStream()
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters), "avcodec_parameters_copy",
                  path: path, kind: .writeFailed)
        stream.pointee.codecpar.pointee.codec_tag = preferredTag(for: parameters.pointee.codec_id)
        stream.pointee.time_base = timeBase
        return stream
    }

    /// Adds a stream for what `encoder` produces, in the encoder's time base until the header is written.
    func addStream(encoder: CodecContext) throws(FFmpegError) -> UnsafeMutablePointer<AVStream> {
        let stream = try newStream()
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer),
                  "avcodec_parameters_from_context", path: path, kind: .writeFailed)
        stream.pointee.codecpar.pointee.codec_tag = preferredTag(for: encoder.pointer.pointee.codec_id)
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return stream
    }

    /// The sample entry to write for `codec`: `hvc1` for HEVC in MP4 (parameter sets in the
    /// header, which Apple's players require), else 0 for the muxer's default.
    private func preferredTag(for codec: AVCodecID) -> UInt32 {
        let name = String(cString: pointer.pointee.oformat.pointee.name)
        guard codec == AV_CODEC_ID_HEVC, ["mp4", "mov", "ipod"].contains(name) else { return 0 }
        return UInt32(UInt8(ascii: "h")) | UInt32(UInt8(ascii: "v")) << 8 | UInt32(UInt8(ascii: "c")) << 16
            | UInt32(UInt8(ascii: "1")) << 24
    }

    private func newStream() throws(FFmpegError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw FFmpegError(.writeFailed, operation: "avformat_new_stream", path: path, code: shim_AVERROR(ENOMEM),
                              reason: "out of memory")
        }
        return stream
    }

    /// The MP4 muxer's `movflags` for `fastStart` (index at the front) and `metadata` (keys in
    /// reverse-DNS form need `use_metadata_tags`, else the muxer drops them).
    static func movFlags(fastStart: Bool, metadata: [String: String]) -> [String: String] {
        var flags = ""
        if fastStart { flags += "+faststart" }
        if metadata.keys.contains(where: { $0.contains(".") }) { flags += "+use_metadata_tags" }
        return flags.isEmpty ? [:] : ["movflags": flags]
    }

    /// Opens the file and writes the container header.
    /// - Parameter options: muxer options such as `movflags`.
    func writeHeader(options: [String: String] = [:]) throws(FFmpegError) {
        let ioOptions = try Options(["protocol_whitelist": "file"], path: path)
        var callback = stop.interruptCallback
        try check(avio_open2(&pointer.pointee.pb, fileURL(path), shim_AVIO_FLAG_WRITE(), &callback, &ioOptions.pointer),
                  "avio_open2", path: path, kind: .writeFailed, stop: stop)
        isOpen = true
        let muxerOptions = try Options(path: path)
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { try muxerOptions.set(key, value) }
        try check(avformat_write_header(pointer, &muxerOptions.pointer), "avformat_write_header", path: path,
                  kind: .writeFailed, stop: stop)
        if let unused = muxerOptions.unused.first {
            throw FFmpegError(.encodeFailed, operation: "avformat_write_header", path: path,
                              reason: "the muxer does not take the option \(unused)")
        }
    }

    /// Stream `index`; valid while this object lives.
    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        pointer.pointee.streams[Int(index)]!
    }

    /// Writes `packet` (timestamps already in its output stream's time base), interleaving by time.
    func write(_ packet: Packet) throws(FFmpegError) {
        try check(av_interleaved_write_frame(pointer, packet.pointer), "av_interleaved_write_frame", path: path,
                  kind: .writeFailed, stop: stop)
    }

    /// Writes the trailer and closes the file, reporting any error the writes left behind.
    func finish() throws(FFmpegError) {
        try check(av_write_trailer(pointer), "av_write_trailer", path: path, kind: .writeFailed, stop: stop)
        if let pb = pointer.pointee.pb {
            avio_flush(pb)
            try check(pb.pointee.error, "avio_flush", path: path, kind: .writeFailed, stop: stop)
        }
        isOpen = false
        try check(avio_closep(&pointer.pointee.pb), "avio_closep", path: path, kind: .writeFailed, stop: stop)
    }
}
