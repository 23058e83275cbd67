import CFFmpegShim
import MediaInputLimits

/// Reads what a media file holds without decoding it.
public enum MediaProbe {
    /// Describes the file at `path`: duration, container, main video and audio streams and,
    /// when asked, the video keyframes.
    ///
    /// The keyframes come from one scan of the video packets (no decoding); the scan also counts
    /// the frames and fails on packets the demuxer flags as damaged or on an error it logs.
    /// - Parameters:
    ///   - path: the file.
    ///   - limits: the containers accepted and the largest picture.
    ///   - scanKeyframes: whether to read every video packet for ``MediaInfo/keyframes``.
    ///   - shouldStop: asked between packets and by blocking reads; `true` ends the scan.
    /// - Throws: ``FFmpegError``: `unsupportedFormat` (not media, or not on the whitelist),
    ///   `tooManyPixels`, `corruptMedia`, `readFailed`, `stopped`.
    public static func probe(
        _ path: String, limits: MediaLimits = MediaLimits(), scanKeyframes: Bool,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) -> MediaInfo {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: path, limits: limits, stop: stop)
        var info = MediaInfo(duration: input.duration, startTime: input.startTime,
                             formatName: String(cString: input.pointer.pointee.iformat.pointee.name),
                             video: nil, audio: nil, keyframes: [], tags: Metadata.entries(input.pointer.pointee.metadata))
        let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO)
        if let videoIndex {
            info.video = try videoInfo(input.stream(videoIndex), path: path, limits: limits)
        }
        if let audioIndex = input.bestStream(AVMEDIA_TYPE_AUDIO) {
            info.audio = audioInfo(input.stream(audioIndex))
        }
        let audioIndexes = input.streams(of: AVMEDIA_TYPE_AUDIO)
        info.audioTracks = audioIndexes.map { audioInfo(input.stream($0)) }
        info.otherStreams = (0..<input.streamCount)
            .filter { $0 != videoIndex && !audioIndexes.contains($0) }
            .map { describe(input.stream($0)) }
        if scanKeyframes, let videoIndex {
            let (keyframes, count) = try scan(input, stream: videoIndex)
            info.keyframes = keyframes
            info.video?.frameCount = count
        }
        return info
    }

    private static func audioInfo(_ stream: UnsafeMutablePointer<AVStream>) -> AudioInfo {
        let parameters = stream.pointee.codecpar.pointee
        return AudioInfo(codecName: String(cString: avcodec_get_name(parameters.codec_id)),
                         sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels))
    }

    /// `stream 3: subtitle (subrip, fra)`: the stream's index, type, codec and language.
    static func describe(_ stream: UnsafeMutablePointer<AVStream>) -> String {
        let parameters = stream.pointee.codecpar.pointee
        let type = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "unknown"
        var details = [String(cString: avcodec_get_name(parameters.codec_id))]
        if let language = av_dict_get(stream.pointee.metadata, "language", nil, 0)?.pointee.value {
            details.append(String(cString: language))
        }
        let picture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 ? " picture" : ""
        return "stream \(stream.pointee.index): \(type)\(picture) (\(details.joined(separator: ", ")))"
    }

    private static func videoInfo(
        _ stream: UnsafeMutablePointer<AVStream>, path: String, limits: MediaLimits
    ) throws(FFmpegError) -> VideoInfo {
        let parameters = stream.pointee.codecpar.pointee
        let pixels = Int(parameters.width) * Int(parameters.height)
        guard pixels <= limits.maxPixels else {
            throw FFmpegError(.tooManyPixels, operation: "probe", path: path,
                              reason: "\(parameters.width)×\(parameters.height) is \(pixels) pixels, "
                                  + "more than the limit of \(limits.maxPixels)")
        }
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0
        let frames = stream.pointee.nb_frames
        return VideoInfo(width: Int(parameters.width), height: Int(parameters.height), frameRate: frameRate,
                         frameCount: frames > 0 ? Int(frames) : nil,
                         codecName: String(cString: avcodec_get_name(parameters.codec_id)),
                         rotation: Int(shim_stream_rotation(stream)))
    }

    /// Reads every packet of `stream`: the keyframes' presentation times and the packet count.
    private static func scan(_ input: InputFile, stream index: Int32) throws(FFmpegError) -> ([Double], Int) {
        input.keepOnly([index])
        let timeBase = input.stream(index).pointee.time_base
        let packet = Packet()
        var keyframes: [Double] = []
        var count = 0
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try input.stop.check(path: input.path)
            try packet.requireIntact("a video packet", path: input.path)
            count += 1
            if packet.isKeyframe, let time = packet.time {
                keyframes.append(timeBase.seconds(time))
            }
        }
        // A demuxer that resynchronises past damage (Matroska skips a broken cluster) returns the
        // packets around it unflagged and only logs an error; frames would silently go missing.
        // The log was cleared when the file was opened, so this covers the stream-info probe too.
        if let logged = FFmpegError.lastLogMessage() {
            throw FFmpegError(.corruptMedia, operation: "av_read_frame", path: input.path, code: shim_AVERROR_INVALIDDATA(),
                              reason: "FFmpeg reported damage while reading it: \(logged)")
        }
        return (keyframes.sorted(), count)
    }
}
