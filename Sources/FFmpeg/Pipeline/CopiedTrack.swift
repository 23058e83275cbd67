import CFFmpegShim
import MediaInputLimits

/// One audio track that ``SegmentJoiner`` copies into its output: the first audio stream of a
/// file, its output stream, and the packet waiting to be written.
final class CopiedTrack {
    let input: InputFile
    let index: Int32
    /// The stream in the joined output.
    let output: UnsafeMutablePointer<AVStream>
    /// The next packet, valid while ``waiting``.
    let packet = Packet()
    private(set) var waiting = false

    /// Opens the track in `path` and adds its stream, labelled as in the file, to `muxer`.
    init(path: String, into muxer: OutputFile, limits: MediaLimits, stop: StopSignal) throws(FFmpegError) {
        input = try InputFile(path: path, limits: limits, stop: stop)
        guard let index = input.streams(of: AVMEDIA_TYPE_AUDIO).first else {
            throw FFmpegError(.noAudioStream, operation: "find audio track", path: path, reason: "no audio stream")
        }
        self.index = index
        input.keepOnly([index])
        let stream = input.stream(index)
        let codec = stream.pointee.codecpar.pointee.codec_id
        guard muxer.accepts(codec) else {
            throw FFmpegError(.unsupportedCodec, operation: "avformat_query_codec", path: path,
                              reason: "MP4 cannot hold \(String(cString: avcodec_get_name(codec))) audio; "
                                  + "re-encode it to AAC")
        }
        output = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        try StreamLabels.copy(from: stream, to: output, path: muxer.path)
    }

    /// The time base of ``packet``'s timestamps.
    var timeBase: AVRational { input.stream(index).pointee.time_base }

    /// ``packet``'s decoding time (its presentation time when it has none).
    var decodingTime: Int64 { SegmentJoiner.decodingTime(packet) }

    /// Reads the next packet of the track into ``packet``; ``waiting`` says whether there was one.
    func advance() throws(FFmpegError) {
        waiting = false
        while try input.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try packet.requireIntact("an audio packet", path: input.path)
            waiting = true
            return
        }
    }
}
