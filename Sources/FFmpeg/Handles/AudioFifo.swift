import CFFmpegShim

/// An owned `AVAudioFifo` collecting samples until an encoder's frame is full; freed with
/// `av_audio_fifo_free`.
final class AudioFifo {
    private let pointer: OpaquePointer
    private let path: String

    /// Creates a queue for `channels` channels of `format`.
    init(format: AVSampleFormat, channels: Int32, path: String) {
        guard let fifo = av_audio_fifo_alloc(format, channels, 4096) else { fatalError("av_audio_fifo_alloc: out of memory") }
        pointer = fifo
        self.path = path
    }

    deinit { av_audio_fifo_free(pointer) }

    /// The samples queued.
    var count: Int32 { av_audio_fifo_size(pointer) }

    /// Queues the samples of `frame`.
    func write(_ frame: Frame) throws(FFmpegError) {
        let planes = UnsafeMutableRawPointer(frame.pointer.pointee.extended_data!)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        try check(av_audio_fifo_write(pointer, planes, frame.pointer.pointee.nb_samples), "av_audio_fifo_write",
                  path: path, kind: .encodeFailed)
    }

    /// Moves `count` samples into `frame`, which has room for them.
    func read(into frame: Frame, count: Int32) throws(FFmpegError) {
        try frame.makeWritable(path: path)
        let planes = UnsafeMutableRawPointer(frame.pointer.pointee.extended_data!)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        frame.pointer.pointee.nb_samples = try check(av_audio_fifo_read(pointer, planes, count), "av_audio_fifo_read",
                                                     path: path, kind: .encodeFailed)
    }
}
