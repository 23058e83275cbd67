import CFFmpegShim
import MediaInputLimits

/// The video packets of several segments read as one stream: each segment's timestamps shifted to
/// start where the previous segment ended, in the first segment's time base.
final class SegmentChain {
    /// The first segment's codec parameters, which every segment must share.
    let parameters: UnsafePointer<AVCodecParameters>
    /// The time base of the packets handed out.
    let timeBase: AVRational

    private let paths: [String]
    private let limits: MediaLimits
    private let stop: StopSignal
    private let first: InputFile
    private var current: InputFile
    private var streamIndex: Int32
    private var position = 0
    /// Added to the current segment's timestamps (after rescaling).
    private var offset: Int64 = 0
    /// The latest end (pts + duration) handed out so far.
    private var end: Int64 = .min
    /// Where the current segment ends by its container's duration, when it declares one.
    private var declaredEnd: Int64?
    /// A frame's duration by the first segment's frame rate, for packets that carry none.
    private let frameDuration: Int64
    private var lastDecodingTime: Int64 = .min

    /// Opens the first segment.
    init(paths: [String], limits: MediaLimits, stop: StopSignal) throws(FFmpegError) {
        self.paths = paths
        self.limits = limits
        self.stop = stop
        first = try InputFile(path: paths[0], limits: limits, stop: stop)
        streamIndex = try first.videoStream()
        first.keepOnly([streamIndex])
        let stream = first.stream(streamIndex)
        parameters = UnsafePointer(stream.pointee.codecpar)
        timeBase = stream.pointee.time_base
        current = first
        var rate = stream.pointee.avg_frame_rate
        if !rate.isValid { rate = stream.pointee.r_frame_rate }
        frameDuration = rate.isValid ? av_rescale_q(1, av_inv_q(rate), timeBase) : 0
        offset = -startTime(of: stream)
        declaredEnd = declaredEnd(of: stream)
    }

    /// Reads the next video packet, moving on to the next segment at the end of one.
    /// - Returns: `false` after the last packet of the last segment.
    func next(into packet: Packet) throws(FFmpegError) -> Bool {
        while true {
            if try current.read(into: packet) {
                guard packet.streamIndex == streamIndex else { continue }
                try shift(packet)
                return true
            }
            position += 1
            guard position < paths.count else { return false }
            if let declaredEnd { end = max(end, declaredEnd) }
            try open(paths[position])
        }
    }

    private func shift(_ packet: Packet) throws(FFmpegError) {
        try packet.requireIntact("a video packet", path: current.path)
        let p = packet.pointer
        av_packet_rescale_ts(p, current.stream(streamIndex).pointee.time_base, timeBase)
        let nopts = shim_AV_NOPTS_VALUE()
        if p.pointee.pts != nopts { p.pointee.pts += offset }
        if p.pointee.dts != nopts { p.pointee.dts += offset }
        // MP4 keeps durations only in its sample table; the muxer needs the last one.
        if p.pointee.duration <= 0 { p.pointee.duration = frameDuration }
        let time = p.pointee.pts != nopts ? p.pointee.pts : p.pointee.dts
        if time != nopts { end = max(end, time + max(0, p.pointee.duration)) }
        if p.pointee.dts != nopts {
            guard p.pointee.dts > lastDecodingTime else {
                throw FFmpegError(.incompatibleSegments, operation: "join", path: current.path,
                                  reason: "its decoding times overlap the previous segment's")
            }
            lastDecodingTime = p.pointee.dts
        }
    }

    private func open(_ path: String) throws(FFmpegError) {
        let input = try InputFile(path: path, limits: limits, stop: stop)
        let index = try input.videoStream()
        input.keepOnly([index])
        let stream = input.stream(index)
        try checkCompatible(stream.pointee.codecpar, path: path)
        current = input
        streamIndex = index
        offset = (end == .min ? 0 : end) - av_rescale_q(startTime(of: stream), stream.pointee.time_base, timeBase)
        declaredEnd = declaredEnd(of: stream)
    }

    /// Where `stream` ends in the chain's time base, shifted by the current offset: its start
    /// plus its container duration; `nil` when it declares no duration.
    private func declaredEnd(of stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        let duration = stream.pointee.duration
        guard duration != shim_AV_NOPTS_VALUE(), duration > 0 else { return nil }
        return av_rescale_q(startTime(of: stream) + duration, stream.pointee.time_base, timeBase) + offset
    }

    /// The first presentation time of `stream`, in its time base; 0 when unknown.
    private func startTime(of stream: UnsafeMutablePointer<AVStream>) -> Int64 {
        let start = stream.pointee.start_time
        return start == shim_AV_NOPTS_VALUE() ? 0 : start
    }

    private func checkCompatible(_ other: UnsafePointer<AVCodecParameters>, path: String) throws(FFmpegError) {
        let a = parameters.pointee, b = other.pointee
        var differences: [String] = []
        if a.codec_id != b.codec_id {
            differences.append("codec \(String(cString: avcodec_get_name(b.codec_id))) "
                + "instead of \(String(cString: avcodec_get_name(a.codec_id)))")
        }
        if a.width != b.width || a.height != b.height {
            differences.append("size \(b.width)×\(b.height) instead of \(a.width)×\(a.height)")
        }
        if a.format != b.format { differences.append("a different pixel format") }
        let sameExtradata = a.extradata_size == b.extradata_size
            && (a.extradata_size == 0 || memcmp(a.extradata, b.extradata, Int(a.extradata_size)) == 0)
        if !sameExtradata { differences.append("different codec headers (SPS/PPS)") }
        guard differences.isEmpty else {
            throw FFmpegError(.incompatibleSegments, operation: "join", path: path,
                              reason: "it has " + differences.joined(separator: ", "))
        }
    }
}
