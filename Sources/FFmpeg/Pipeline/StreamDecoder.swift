import CFFmpegShim
import MediaInputLimits

/// Decodes one stream of an input, frame by frame: reads the stream's packets, feeds the decoder,
/// drains it at the end of the file.
final class StreamDecoder {
    let input: InputFile
    let decoder: CodecContext
    let streamIndex: Int32
    private let packet = Packet()
    private let strict: Bool
    private var draining = false
    /// Set by a seek: packets before the stream's next keyframe cannot be decoded.
    private var awaitingKeyframe = false

    /// Opens the decoder of stream `streamIndex` of `input`.
    /// - Parameter strict: fail on any damage, in the container or the stream (for verification).
    init(input: InputFile, streamIndex: Int32, limits: MediaLimits, threads: Int, strict: Bool = false)
        throws(FFmpegError)
    {
        self.input = input
        self.streamIndex = streamIndex
        self.strict = strict
        decoder = try CodecContext.decoder(for: input.stream(streamIndex), of: input, limits: limits,
                                           threads: threads, strict: strict)
    }

    /// The stream being decoded.
    var stream: UnsafeMutablePointer<AVStream> { input.stream(streamIndex) }

    /// Seeks to the last keyframe at or before `time` (in the stream's time base) and forgets what
    /// the decoder holds.
    func seek(to time: Int64) throws(FFmpegError) {
        try input.seek(stream: streamIndex, to: time)
        avcodec_flush_buffers(decoder.pointer)
        draining = false
        awaitingKeyframe = true
    }

    /// Decodes the next frame into `frame`, checking the stop signal before each packet.
    /// - Returns: `false` when the stream has no more frames.
    func next(into frame: Frame) throws(FFmpegError) -> Bool {
        while true {
            frame.unref()
            if try decoder.receive(frame, stop: input.stop) { return true }
            if draining { return false }
            try input.stop.check(path: input.path)
            guard try input.read(into: packet) else {
                try decoder.send(nil as Packet?, stop: input.stop)
                draining = true
                continue
            }
            guard packet.streamIndex == streamIndex else { continue }
            if awaitingKeyframe {
                guard packet.isKeyframe else { continue }
                awaitingKeyframe = false
            }
            if strict { try packet.requireIntact("a packet", path: input.path) }
            try decoder.send(packet, stop: input.stop)
        }
    }
}
