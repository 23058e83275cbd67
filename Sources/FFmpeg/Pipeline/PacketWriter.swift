import CFFmpegShim

/// Moves an encoder's packets into one stream of a muxer: gives each packet its frame's
/// duration, rescales its timestamps to the stream's time base and writes it.
final class PacketWriter {
    private let encoder: CodecContext
    private let muxer: OutputFile
    private let stream: UnsafeMutablePointer<AVStream>
    private let nominalDuration: Int64
    private let stop: StopSignal
    private let packet = Packet()
    /// The duration of each frame sent and not yet out as a packet, by presentation time.
    private var durations: [Int64: Int64] = [:]

    /// Connects `encoder` to `stream` of `muxer`.
    /// - Parameter nominalDuration: a frame's duration in the encoder's time base, for packets whose
    ///   frame did not say.
    init(encoder: CodecContext, muxer: OutputFile, stream: UnsafeMutablePointer<AVStream>, nominalDuration: Int64,
         stop: StopSignal) {
        self.encoder = encoder
        self.muxer = muxer
        self.stream = stream
        self.nominalDuration = nominalDuration
        self.stop = stop
    }

    /// Encodes `frame`, lasting `duration` (encoder time base), and writes what comes out.
    func encode(_ frame: Frame, duration: Int64? = nil) throws(FFmpegError) {
        if let duration { durations[frame.pointer.pointee.pts] = duration }
        try encoder.send(frame, stop: stop)
        try drain()
    }

    /// Drains the encoder and writes its last packets.
    func finish() throws(FFmpegError) {
        try encoder.send(nil as Frame?, stop: stop)
        try drain()
    }

    private func drain() throws(FFmpegError) {
        while try encoder.receive(packet, stop: stop) {
            let p = packet.pointer
            if let duration = durations.removeValue(forKey: p.pointee.pts) {
                p.pointee.duration = duration
            } else if p.pointee.duration <= 0 {
                p.pointee.duration = nominalDuration
            }
            p.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(p, encoder.pointer.pointee.time_base, stream.pointee.time_base)
            try muxer.write(packet)
        }
    }
}
