import CFFmpegShim

extension CodecContext {
    /// Opens a YUV 4:2:0 video encoder with `encoding`'s settings and `+bitexact`.
    /// - Parameters:
    ///   - timeBase: the time base of the frames' timestamps.
    ///   - frameRate: the nominal rate, for rate control and headers.
    ///   - colour: what the pictures' values mean, written into the stream (and from there the
    ///     container) as its matrix, range, primaries and transfer.
    ///   - format: the pictures' format: 8-bit (`yuv420p`) or 10-bit (`yuv420p10le`) 4:2:0.
    ///   - hdr: mastering display and light levels to write into the bitstream (x265, SVT-AV1).
    static func videoEncoder(
        _ encoding: VideoEncoding, width: Int, height: Int, timeBase: AVRational, frameRate: AVRational,
        aspect: AVRational, colour: PictureColour, format: AVPixelFormat = AV_PIX_FMT_YUV420P, hdr: HDRMetadata? = nil,
        globalHeader: Bool, path: String
    ) throws(FFmpegError) -> CodecContext {
        guard let codec = avcodec_find_encoder_by_name(encoding.codec),
              codec.pointee.type == AVMEDIA_TYPE_VIDEO else {
            throw FFmpegError(.encoderUnavailable, operation: "avcodec_find_encoder_by_name", path: path,
                              code: shim_AVERROR_ENCODER_NOT_FOUND(),
                              reason: "this FFmpeg build has no video encoder \(encoding.codec)")
        }
        let context = CodecContext(codec: codec, path: path)
        let p = context.pointer
        p.pointee.width = Int32(width)
        p.pointee.height = Int32(height)
        p.pointee.pix_fmt = format
        p.pointee.time_base = timeBase
        p.pointee.framerate = frameRate
        p.pointee.sample_aspect_ratio = aspect
        p.pointee.thread_count = Int32(clamping: max(1, encoding.threads))
        p.pointee.bit_rate = 0
        p.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if globalHeader { p.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        p.pointee.color_primaries = colour.primaries
        p.pointee.color_trc = colour.transfer
        p.pointee.colorspace = colour.matrix
        p.pointee.color_range = colour.range

        let options = try Options(["crf": String(encoding.crf)], path: path)
        switch encoding.codec {
        case "libx264":
            try options.set("preset", encoding.preset)
            if let flags = X264CPU.flags(width: width) { try options.set("x264-params", "asm=\(flags)") }
        case "libx265":
            // x265 prints to stderr and sizes its own thread pool unless told otherwise, and writes
            // an "info" SEI with its build and this machine's CPU features (`cpuid=`) into every
            // stream: without `info=0` the same plan gives different bytes on another machine.
            let threads = max(1, encoding.threads)
            try options.set("preset", encoding.preset)
            let parameters = ["log-level=error", "info=0", "pools=\(threads)", "frame-threads=\(threads)"]
                + (hdr?.x265Parameters ?? [])
            try options.set("x265-params", parameters.joined(separator: ":"))
        case "libsvtav1":
            // FFmpeg does not pass `thread_count` on, and SVT-AV1 sizes its thread pool from the CPUs
            // it sees (`sysconf`, so even a pinned process gets one per core) unless told (`lp`).
            try options.set("preset", String(svtPreset(encoding.preset)))
            let parameters = ["lp=\(max(1, encoding.threads))"] + (hdr?.svtParameters ?? [])
            try options.set("svtav1-params", parameters.joined(separator: ":"))
        case "libaom-av1":
            try options.set("cpu-used", String(aomSpeed(encoding.preset)))
            try options.set("row-mt", "0")
        default:
            break
        }
        try check(avcodec_open2(p, codec, &options.pointer), "avcodec_open2 \(encoding.codec)", path: path,
                  kind: .encodeFailed)
        if let unused = options.unused.first {
            throw FFmpegError(.encodeFailed, operation: "avcodec_open2 \(encoding.codec)", path: path,
                              reason: "the encoder does not take the option \(unused)")
        }
        return context
    }

    /// Opens FFmpeg's native AAC-LC encoder for planar float input.
    static func aacEncoder(
        bitrate: Int, sampleRate: Int32, layout: UnsafePointer<AVChannelLayout>, globalHeader: Bool, path: String
    ) throws(FFmpegError) -> CodecContext {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError(.encoderUnavailable, operation: "avcodec_find_encoder_by_name", path: path,
                              code: shim_AVERROR_ENCODER_NOT_FOUND(), reason: "this FFmpeg build has no aac encoder")
        }
        let context = CodecContext(codec: codec, path: path)
        let p = context.pointer
        p.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        p.pointee.sample_rate = sampleRate
        p.pointee.time_base = AVRational(num: 1, den: sampleRate)
        p.pointee.bit_rate = Int64(bitrate)
        p.pointee.thread_count = 1
        p.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if globalHeader { p.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(av_channel_layout_copy(&p.pointee.ch_layout, layout), "av_channel_layout_copy", path: path,
                  kind: .encodeFailed)
        try check(avcodec_open2(p, codec, nil), "avcodec_open2 aac", path: path, kind: .encodeFailed)
        return context
    }

    /// The sample rates the AAC encoder takes.
    static let aacSampleRates: Set<Int32> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000,
                                             11025, 8000, 7350]

    private static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow",
                                  "slower", "veryslow", "placebo"]

    /// SVT-AV1's preset (0 slowest … 12 fastest) nearest to an x264 preset.
    private static func svtPreset(_ preset: String) -> Int {
        let index = presets.firstIndex(of: preset) ?? 5
        return max(0, 12 - index * 4 / 3)
    }

    /// libaom's `cpu-used` (0 slowest … 8 fastest) nearest to an x264 preset.
    private static func aomSpeed(_ preset: String) -> Int {
        let index = presets.firstIndex(of: preset) ?? 5
        return max(0, 8 - index)
    }
}
