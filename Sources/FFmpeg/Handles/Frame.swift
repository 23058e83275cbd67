import CFFmpegShim

/// An owned `AVFrame`, freed with `av_frame_free`.
final class Frame {
    /// The frame; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    /// Allocates a video frame with its own buffers.
    convenience init(width: Int32, height: Int32, format: AVPixelFormat, path: String) throws(FFmpegError) {
        self.init()
        pointer.pointee.width = width
        pointer.pointee.height = height
        pointer.pointee.format = format.rawValue
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer", path: path, kind: .encodeFailed)
    }

    /// Allocates an audio frame with its own buffers for `samples` samples.
    convenience init(samples: Int32, format: AVSampleFormat, layout: UnsafePointer<AVChannelLayout>, rate: Int32,
                     path: String) throws(FFmpegError) {
        self.init()
        pointer.pointee.nb_samples = samples
        pointer.pointee.format = format.rawValue
        pointer.pointee.sample_rate = rate
        try check(av_channel_layout_copy(&pointer.pointee.ch_layout, layout), "av_channel_layout_copy", path: path,
                  kind: .encodeFailed)
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer", path: path, kind: .encodeFailed)
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Drops the frame's buffers and resets its fields.
    func unref() { av_frame_unref(pointer) }

    /// Makes the buffers this frame's own before they are written, copying when they are shared
    /// (for example with an encoder still holding the previous picture).
    func makeWritable(path: String) throws(FFmpegError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable", path: path, kind: .encodeFailed)
    }

    /// The frame's presentation time in its stream's time base, when known.
    var time: Int64? {
        let nopts = shim_AV_NOPTS_VALUE()
        if pointer.pointee.best_effort_timestamp != nopts { return pointer.pointee.best_effort_timestamp }
        if pointer.pointee.pts != nopts { return pointer.pointee.pts }
        return nil
    }

    var width: Int32 { pointer.pointee.width }
    var height: Int32 { pointer.pointee.height }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    /// The start of plane `index` and its stride in bytes.
    func plane(_ index: Int) -> (data: UnsafeMutablePointer<UInt8>?, stride: Int32) {
        withUnsafeBytes(of: pointer.pointee.data) { data in
            withUnsafeBytes(of: pointer.pointee.linesize) { lines in
                (data.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                           as: UnsafeMutablePointer<UInt8>?.self),
                 lines.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self))
            }
        }
    }
}
