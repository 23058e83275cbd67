import CFFmpegShim
import MediaInputLimits

extension MediaProbe {
    /// The presentation time of the first video frame at or after `start`: where a video cut at
    /// `start` by ``SegmentEncoder`` begins, so that audio taken from that time stays in sync.
    ///
    /// Reads packets, without decoding, from the keyframe at or before `start`. Packets that the
    /// container's edit list leaves out (flagged for discarding) are ignored, as the decoder drops
    /// their frames. The search ends once decoding times pass the earliest time found, since no
    /// later packet can be shown before it.
    /// - Parameters:
    ///   - path: the video.
    ///   - start: seconds on the file's timeline.
    ///   - limits: what the file may be.
    ///   - shouldStop: asked between packets and by blocking reads.
    /// - Returns: seconds on the file's timeline; `start` when no frame lies at or after it.
    /// - Throws: ``FFmpegError``: `noVideoStream` and the errors of opening and reading the file.
    public static func firstFrameTime(
        _ path: String, from start: Double, limits: MediaLimits = MediaLimits(),
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) -> Double {
        let input = try InputFile(path: path, limits: limits, stop: StopSignal(shouldStop))
        let index = try input.videoStream()
        input.keepOnly([index])
        let timeBase = input.stream(index).pointee.time_base
        let target = timeBase.timestamp(start)
        if start > 0 { try input.seek(stream: index, to: target) }
        let packet = Packet()
        var earliest: Int64?
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try input.stop.check(path: path)
            let dts = packet.pointer.pointee.dts
            if let earliest, dts != shim_AV_NOPTS_VALUE(), dts >= earliest { break }
            guard !packet.isDiscarded, let time = packet.time, time >= target else { continue }
            earliest = min(earliest ?? time, time)
        }
        return earliest.map { timeBase.seconds($0) } ?? start
    }
}
