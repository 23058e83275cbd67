import CFFmpegShim

/// Concatenates video-only MP4 segments into one MP4 without re-encoding, with an audio track.
public enum SegmentJoiner {
    /// Joins `segments`, in order, and the packets of `audio` into `output`.
    ///
    /// The segments must share their codec parameters (as ``SegmentEncoder`` makes them from one
    /// source, edit and encoding). Each segment's timestamps are shifted to start where the
    /// previous one ended, so decoding times stay increasing across the joins, B-frame delay
    /// included. The file is written with `+bitexact` and no creation time: equal inputs give
    /// equal bytes.
    /// - Parameters:
    ///   - segments: the video segments, at least one.
    ///   - audio: a file whose main audio stream is copied as it is (timestamps unchanged);
    ///     `nil` for none.
    ///   - output: the MP4 to write; replaced if it exists.
    ///   - fastStart: whether to move the index to the front (`movflags +faststart`), so playback
    ///     can start before the whole file has arrived. Costs one more pass over the file.
    ///   - limits: what the inputs may be.
    ///   - shouldStop: asked between packets and by blocking reads and writes.
    /// - Throws: ``FFmpegError``; `incompatibleSegments` when a segment differs from the first,
    ///   `stopped` when `shouldStop` said so (the partial `output` is left for the caller).
    public static func join(
        segments: [String], audio: String?, output: String, fastStart: Bool = false,
        limits: MediaLimits = MediaLimits(), shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) {
        guard !segments.isEmpty else {
            throw FFmpegError(.invalidRequest, operation: "join", path: output, reason: "there are no segments to join")
        }
        let stop = StopSignal(shouldStop)
        let chain = try SegmentChain(paths: segments, limits: limits, stop: stop)
        let audioInput = try audio.map { path throws(FFmpegError) in
            try InputFile(path: path, limits: limits, stop: stop)
        }
        let audioIndex: Int32?
        if let audioInput {
            guard let index = audioInput.bestStream(AVMEDIA_TYPE_AUDIO) else {
                throw FFmpegError(.noAudioStream, operation: "av_find_best_stream", path: audioInput.path,
                                  reason: "no audio stream")
            }
            audioInput.keepOnly([index])
            audioIndex = index
        } else {
            audioIndex = nil
        }

        let muxer = try OutputFile(path: output, format: "mp4", stop: stop)
        let videoStream = try muxer.addStream(copying: chain.parameters, timeBase: chain.timeBase)
        var audioStream: UnsafeMutablePointer<AVStream>?
        if let audioInput, let audioIndex {
            let stream = audioInput.stream(audioIndex)
            guard muxer.accepts(stream.pointee.codecpar.pointee.codec_id) else {
                throw FFmpegError(.unsupportedCodec, operation: "avformat_query_codec", path: audioInput.path,
                                  reason: "MP4 cannot hold \(String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))) audio; "
                                      + "extract the audio as AAC")
            }
            audioStream = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        }
        try muxer.writeHeader(options: fastStart ? ["movflags": "+faststart"] : [:])

        let videoPacket = Packet(), audioPacket = Packet()
        var hasVideo = try chain.next(into: videoPacket)
        var hasAudio = try nextAudio(audioInput, index: audioIndex, into: audioPacket)
        while hasVideo || hasAudio {
            try stop.check(path: output)
            let videoFirst = hasVideo && (!hasAudio || av_compare_ts(
                decodingTime(videoPacket), chain.timeBase,
                decodingTime(audioPacket), audioInput!.stream(audioIndex!).pointee.time_base) <= 0)
            if videoFirst {
                try write(videoPacket, from: chain.timeBase, to: videoStream, muxer: muxer)
                hasVideo = try chain.next(into: videoPacket)
            } else {
                try write(audioPacket, from: audioInput!.stream(audioIndex!).pointee.time_base, to: audioStream!,
                          muxer: muxer)
                hasAudio = try nextAudio(audioInput, index: audioIndex, into: audioPacket)
            }
        }
        try muxer.finish()
    }

    private static func nextAudio(_ input: InputFile?, index: Int32?, into packet: Packet) throws(FFmpegError) -> Bool {
        guard let input, let index else { return false }
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try packet.requireIntact("an audio packet", path: input.path)
            return true
        }
        return false
    }

    private static func decodingTime(_ packet: Packet) -> Int64 {
        let dts = packet.pointer.pointee.dts
        return dts == shim_AV_NOPTS_VALUE() ? packet.pointer.pointee.pts : dts
    }

    private static func write(
        _ packet: Packet, from timeBase: AVRational, to stream: UnsafeMutablePointer<AVStream>, muxer: OutputFile
    ) throws(FFmpegError) {
        packet.pointer.pointee.stream_index = stream.pointee.index
        packet.pointer.pointee.pos = -1
        av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
        try muxer.write(packet)
    }
}
