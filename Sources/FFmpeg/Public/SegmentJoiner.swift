import CFFmpegShim
import MediaInputLimits

/// Concatenates video-only MP4 segments into one MP4 without re-encoding, with audio tracks.
public enum SegmentJoiner {
    /// Joins `segments`, in order, and the packets of each of `audio` into `output`.
    ///
    /// The segments must share their codec parameters (as ``SegmentEncoder`` makes them from one
    /// source, edit and encoding). Each segment's timestamps are shifted to start where the
    /// previous one ended, so decoding times stay increasing across the joins, B-frame delay
    /// included. The file is written with `+bitexact` and no creation time: equal inputs give
    /// equal bytes.
    /// - Parameters:
    ///   - segments: the video segments, at least one.
    ///   - audio: files whose first audio stream each becomes one track, in order, copied as it is
    ///     (timestamps unchanged, so write them as MP4 to keep priming and edit lists) with its
    ///     language, name and disposition; empty for none.
    ///   - output: the MP4 to write; replaced if it exists.
    ///   - metadata: the container's metadata (capture time, copyright, …); keys in reverse-DNS
    ///     form (`com.apple.quicktime.…`) are written as QuickTime metadata keys.
    ///   - fastStart: whether to move the index to the front (`movflags +faststart`), so playback
    ///     can start before the whole file has arrived. Costs one more pass over the file.
    ///   - limits: what the inputs may be.
    ///   - shouldStop: asked between packets and by blocking reads and writes.
    /// - Throws: ``FFmpegError``; `incompatibleSegments` when a segment differs from the first,
    ///   `unsupportedCodec` when MP4 cannot hold an audio codec, `stopped` when `shouldStop` said
    ///   so (the partial `output` is left for the caller).
    public static func join(
        segments: [String], audio: [String], output: String, metadata: [String: String] = [:], fastStart: Bool = false,
        limits: MediaLimits = MediaLimits(), shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) {
        guard !segments.isEmpty else {
            throw FFmpegError(.invalidRequest, operation: "join", path: output, reason: "there are no segments to join")
        }
        let stop = StopSignal(shouldStop)
        let chain = try SegmentChain(paths: segments, limits: limits, stop: stop)
        let muxer = try OutputFile(path: output, format: "mp4", stop: stop)
        let videoStream = try muxer.addStream(copying: chain.parameters, timeBase: chain.timeBase)
        var tracks: [CopiedTrack] = []
        for path in audio {
            tracks.append(try CopiedTrack(path: path, into: muxer, limits: limits, stop: stop))
        }
        try Metadata.set(metadata, in: &muxer.pointer.pointee.metadata, path: output)
        try muxer.writeHeader(options: OutputFile.movFlags(fastStart: fastStart, metadata: metadata))

        let videoPacket = Packet()
        var hasVideo = try chain.next(into: videoPacket)
        for track in tracks { try track.advance() }
        while true {
            try stop.check(path: output)
            // The earliest waiting packet by decoding time: video, else the first audio track.
            var next: CopiedTrack?
            for track in tracks where track.waiting {
                if next == nil || av_compare_ts(track.decodingTime, track.timeBase,
                                                next!.decodingTime, next!.timeBase) < 0 {
                    next = track
                }
            }
            if hasVideo, next == nil || av_compare_ts(decodingTime(videoPacket), chain.timeBase,
                                                      next!.decodingTime, next!.timeBase) <= 0 {
                try write(videoPacket, from: chain.timeBase, to: videoStream, muxer: muxer)
                hasVideo = try chain.next(into: videoPacket)
            } else if let next {
                try write(next.packet, from: next.timeBase, to: next.output, muxer: muxer)
                try next.advance()
            } else {
                break
            }
        }
        try muxer.finish()
    }

    /// The decoding time of `packet`, else its presentation time.
    static func decodingTime(_ packet: Packet) -> Int64 {
        let dts = packet.pointer.pointee.dts
        return dts == shim_AV_NOPTS_VALUE() ? packet.pointer.pointee.pts : dts
    }

    static func write(
        _ packet: Packet, from timeBase: AVRational, to stream: UnsafeMutablePointer<AVStream>, muxer: OutputFile
    ) throws(FFmpegError) {
        packet.pointer.pointee.stream_index = stream.pointee.index
        packet.pointer.pointee.pos = -1
        av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
        try muxer.write(packet)
    }
}
