import CFFmpegShim

/// Takes the audio of a time range out of a file, for ``SegmentJoiner``.
public enum AudioTrack {
    /// Writes the main audio stream of `source` between `start` and `end` to `output`.
    ///
    /// The container follows `output`'s extension: `.m4a` or `.mp4` (MP4), `.mka` (Matroska).
    /// Timestamps are kept relative to `start`, so AAC priming and a packet that begins just
    /// before `start` become an edit list rather than a shift. Equal inputs give equal bytes.
    /// - Parameters:
    ///   - source: the input.
    ///   - start: the first time kept, in seconds on the source's timeline.
    ///   - end: the first time no longer kept; `nil` for the end.
    ///   - mode: ``AudioMode/copy`` keeps the packets (cut at packet boundaries);
    ///     ``AudioMode/aac(bitrate:)`` decodes, cuts to the sample, converts to mono or stereo
    ///     planar float at a rate AAC takes (the source's, else 48 kHz) and encodes AAC-LC.
    ///   - output: the file to write; replaced if it exists.
    ///   - limits: what the input may be.
    ///   - shouldStop: asked between packets and by blocking reads and writes.
    /// - Throws: ``FFmpegError``: `noAudioStream`; `unsupportedCodec` when the container cannot
    ///   hold the copied codec (use `.mka` or AAC); `invalidRequest` when the range holds no audio;
    ///   `stopped` (the partial `output` is left for the caller).
    public static func extract(
        source: String, from start: Double, to end: Double?, mode: AudioMode, output: String,
        limits: MediaLimits = MediaLimits(), shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: source, limits: limits, stop: stop)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) else {
            throw FFmpegError(.noAudioStream, operation: "av_find_best_stream", path: source, reason: "no audio stream")
        }
        input.keepOnly([index])
        let muxer = try OutputFile(path: output, format: nil, stop: stop)
        let written: Int
        switch mode {
        case .copy:
            written = try copy(input, stream: index, from: start, to: end, into: muxer)
        case .aac(let bitrate):
            written = try AudioReencoder(input: input, stream: index, limits: limits, bitrate: bitrate, muxer: muxer)
                .run(from: start, to: end)
        }
        guard written > 0 else {
            throw FFmpegError(.invalidRequest, operation: "extract audio", path: source,
                              reason: "no audio between \(start) s and \(end.map { "\($0) s" } ?? "the end"); "
                                  + "choose a range inside the file")
        }
        try muxer.finish()
    }

    /// Copies the packets that overlap [`start`, `end`).
    /// - Returns: the number of packets written.
    private static func copy(
        _ input: InputFile, stream index: Int32, from start: Double, to end: Double?, into muxer: OutputFile
    ) throws(FFmpegError) -> Int {
        let stream = input.stream(index)
        let codec = stream.pointee.codecpar.pointee.codec_id
        guard muxer.accepts(codec) else {
            throw FFmpegError(.unsupportedCodec, operation: "avformat_query_codec", path: muxer.path,
                              reason: "\(String(cString: muxer.pointer.pointee.oformat.pointee.name)) cannot hold "
                                  + "\(String(cString: avcodec_get_name(codec))) audio; write .mka or re-encode to AAC")
        }
        let timeBase = stream.pointee.time_base
        let outStream = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: timeBase)
        try muxer.writeHeader()
        let startTime = timeBase.timestamp(start)
        let endTime = end.map { timeBase.timestamp($0) }
        if start > 0 { try input.seek(stream: index, to: startTime) }
        let shift = start > 0 ? startTime : 0
        let packet = Packet()
        var written = 0
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try input.stop.check(path: input.path)
            try packet.requireIntact("an audio packet", path: input.path)
            guard let time = packet.time else { continue }
            if let endTime, time >= endTime { break }
            let p = packet.pointer
            if start > 0 && time + max(0, p.pointee.duration) <= startTime { continue }
            let nopts = shim_AV_NOPTS_VALUE()
            if p.pointee.pts != nopts { p.pointee.pts -= shift }
            if p.pointee.dts != nopts { p.pointee.dts -= shift }
            p.pointee.stream_index = outStream.pointee.index
            p.pointee.pos = -1
            av_packet_rescale_ts(p, timeBase, outStream.pointee.time_base)
            try muxer.write(packet)
            written += 1
        }
        return written
    }
}
