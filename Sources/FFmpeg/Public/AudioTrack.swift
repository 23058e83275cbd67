import CFFmpegShim
import MediaInputLimits

/// Takes the audio of a time range out of a file, for ``SegmentJoiner``.
public enum AudioTrack {
    /// Writes audio track `track` of `source` between `start` and `end` to `output`.
    ///
    /// The container follows `output`'s extension: `.m4a` or `.mp4` (MP4), `.mka` (Matroska).
    /// Write MP4 for a join: it keeps timestamps before 0 as an edit list, and timestamps in
    /// samples, so AAC priming and a packet that begins before `start` stay where they play.
    /// Timestamps are kept relative to `start`: pass the time of the video's first frame
    /// (``MediaProbe/firstFrameTime(_:from:limits:shouldStop:)``) to keep the sound in sync with
    /// a video cut there. The output carries the track's language, name and disposition
    /// (``StreamLabels``). Equal inputs give equal bytes.
    /// - Parameters:
    ///   - source: the input.
    ///   - track: which audio track, counting the file's audio streams in order from 0 (as
    ///     `ffmpeg -map 0:a:N` does).
    ///   - start: the first time kept, in seconds on the source's timeline.
    ///   - end: the first time no longer kept; `nil` for the end.
    ///   - mode: ``AudioMode/copy`` keeps the packets (cut at packet boundaries, with one packet
    ///     before `start` kept for the decoder to settle on); ``AudioMode/aac(bitrate:)``
    ///     decodes, cuts to the sample, converts to mono or stereo planar float at a rate AAC
    ///     takes (the source's, else 48 kHz) and encodes AAC-LC.
    ///   - output: the file to write; replaced if it exists.
    ///   - limits: what the input may be.
    ///   - shouldStop: asked between packets and by blocking reads and writes.
    /// - Throws: ``FFmpegError``: `noAudioStream` (also when `track` is past the last one);
    ///   `unsupportedCodec` when the container cannot hold the copied codec (re-encode to AAC);
    ///   `invalidRequest` when the range holds no audio; `stopped` (the partial `output` is left
    ///   for the caller).
    public static func extract(
        source: String, track: Int = 0, from start: Double, to end: Double?, mode: AudioMode, output: String,
        limits: MediaLimits = MediaLimits(), shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: source, limits: limits, stop: stop)
        let audio = input.streams(of: AVMEDIA_TYPE_AUDIO)
        guard track >= 0, track < audio.count else {
            throw FFmpegError(.noAudioStream, operation: "find audio track", path: source,
                              reason: audio.isEmpty ? "no audio stream" : "no audio track \(track); it has \(audio.count)")
        }
        let index = audio[track]
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

    /// Copies the packets that overlap [`start`, `end`) and the one before them, shifted so that
    /// `start` is 0.
    /// - Returns: the number of packets written.
    private static func copy(
        _ input: InputFile, stream index: Int32, from start: Double, to end: Double?, into muxer: OutputFile
    ) throws(FFmpegError) -> Int {
        let stream = input.stream(index)
        let codec = stream.pointee.codecpar.pointee.codec_id
        guard muxer.accepts(codec) else {
            throw FFmpegError(.unsupportedCodec, operation: "avformat_query_codec", path: muxer.path,
                              reason: "\(String(cString: muxer.pointer.pointee.oformat.pointee.name)) cannot hold "
                                  + "\(String(cString: avcodec_get_name(codec))) audio; re-encode it to AAC")
        }
        let timeBase = stream.pointee.time_base
        let outStream = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: timeBase)
        try StreamLabels.copy(from: stream, to: outStream, path: muxer.path)
        try muxer.writeHeader()
        let startTime = timeBase.timestamp(start)
        let endTime = end.map { timeBase.timestamp($0) }
        if start > 0 { try input.seek(stream: index, to: startTime) }
        let packet = Packet(), preroll = Packet()
        var holdsPreroll = false
        var written = 0
        func write(_ packet: Packet) throws(FFmpegError) {
            let p = packet.pointer
            let nopts = shim_AV_NOPTS_VALUE()
            if p.pointee.pts != nopts { p.pointee.pts -= startTime }
            if p.pointee.dts != nopts { p.pointee.dts -= startTime }
            p.pointee.stream_index = outStream.pointee.index
            p.pointee.pos = -1
            av_packet_rescale_ts(p, timeBase, outStream.pointee.time_base)
            try muxer.write(packet)
            written += 1
        }
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try input.stop.check(path: input.path)
            try packet.requireIntact("an audio packet", path: input.path)
            guard let time = packet.time else { continue }
            if let endTime, time >= endTime { break }
            if time + max(0, packet.pointer.pointee.duration) <= startTime {
                preroll.take(packet)
                holdsPreroll = true
                continue
            }
            if holdsPreroll {
                try write(preroll)
                holdsPreroll = false
            }
            try write(packet)
        }
        return written
    }
}
