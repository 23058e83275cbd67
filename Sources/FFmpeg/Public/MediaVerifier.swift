import CFFmpegShim
import MediaInputLimits

/// Checks that a file decodes, before it is published.
public enum MediaVerifier {
    /// How much of the video a check decodes.
    public enum Depth: Sendable {
        /// Every packet: proves every frame decodes; costs a full decode.
        case everyFrame
        /// Every keyframe, each decoded on its own; every other packet is read, checked and
        /// counted but not decoded. Enough for a file this program just remuxed from segments it
        /// encoded itself (a join error shows at the keyframe that starts each segment), at a
        /// small fraction of a full decode.
        case keyframes
    }

    /// Reads every packet of the main video and audio streams of `path` with strict error
    /// detection (`err_detect explode` in the demuxer and the decoders), decodes them as deep as
    /// `depth` says, and reports what it found.
    ///
    /// Fails on any damaged or cut-short packet, on any decoding error, and when the video ends
    /// before the frame count its container declares.
    /// - Parameters:
    ///   - path: the file.
    ///   - limits: what the file may be.
    ///   - depth: how much video to decode; audio is always decoded in full.
    ///   - shouldStop: asked between packets and by blocking reads.
    /// - Throws: ``FFmpegError``: `corruptMedia` (category `invalidInput`) for a damaged or
    ///   truncated file, `unsupportedFormat`, `tooManyPixels`, `readFailed`, `stopped`.
    public static func verify(
        _ path: String, limits: MediaLimits = MediaLimits(), depth: Depth = .everyFrame,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) -> VerifiedMedia {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: path, limits: limits, stop: stop, strict: true)
        let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO)
        let audioIndex = input.bestStream(AVMEDIA_TYPE_AUDIO)
        guard videoIndex != nil || audioIndex != nil else {
            throw FFmpegError(.unsupportedFormat, operation: "av_find_best_stream", path: path,
                              reason: "it has neither video nor audio")
        }
        input.keepOnly(Set([videoIndex, audioIndex].compactMap { $0 }))
        let video = try videoIndex.map { index throws(FFmpegError) in
            try CodecContext.decoder(for: input.stream(index), of: input, limits: limits, threads: 0, strict: true)
        }
        let audio = try audioIndex.map { index throws(FFmpegError) in
            try CodecContext.decoder(for: input.stream(index), of: input, limits: limits, threads: 1, strict: true)
        }

        let packet = Packet(), frame = Frame()
        var frames = 0
        func drain(_ decoder: CodecContext?, counting: Bool) throws(FFmpegError) {
            guard let decoder else { return }
            while try decoder.receive(frame, stop: stop) {
                if counting { frames += 1 }
                frame.unref()
            }
        }
        while try input.read(into: packet) {
            try stop.check(path: path)
            let index = packet.streamIndex
            guard index == videoIndex || index == audioIndex else { continue }
            try packet.requireIntact("a packet", path: path)
            if index == videoIndex, depth == .keyframes, let video {
                frames += 1
                guard packet.isKeyframe else { continue }
                // Decode the keyframe alone, then reset the decoder for the next one.
                try video.send(packet, stop: stop)
                try video.send(nil as Packet?, stop: stop)
                var decoded = 0
                while try video.receive(frame, stop: stop) {
                    decoded += 1
                    frame.unref()
                }
                avcodec_flush_buffers(video.pointer)
                guard decoded == 1 else {
                    throw FFmpegError(.corruptMedia, operation: "decode", path: path, code: shim_AVERROR_INVALIDDATA(),
                                      reason: "the keyframe at byte \(packet.pointer.pointee.pos) does not decode on its own")
                }
                continue
            }
            let decoder = index == videoIndex ? video : audio
            try decoder?.send(packet, stop: stop)
            try drain(decoder, counting: index == videoIndex)
        }
        for (decoder, counting) in [(depth == .everyFrame ? video : nil, true), (audio, false)] {
            try decoder?.send(nil as Packet?, stop: stop)
            try drain(decoder, counting: counting)
        }

        var width = 0, height = 0
        if let videoIndex {
            let stream = input.stream(videoIndex)
            width = Int(stream.pointee.codecpar.pointee.width)
            height = Int(stream.pointee.codecpar.pointee.height)
            let declared = Int(stream.pointee.nb_frames)
            if frames == 0 || frames < declared {
                throw FFmpegError(.corruptMedia, operation: "decode", path: path, code: shim_AVERROR_INVALIDDATA(),
                                  reason: "only \(frames) of \(max(declared, 1)) video frames decode; the file is cut short")
            }
        }
        return VerifiedMedia(frames: frames, duration: input.duration, width: width, height: height,
                             hasAudio: audioIndex != nil)
    }
}
