import CFFmpegShim

/// An owned `SwrContext` converting audio between sample formats, rates and channel layouts;
/// freed with `swr_free`.
final class Resampler {
    private var pointer: OpaquePointer?
    private let path: String
    private var output: Frame?
    private var allocated: Int32 = 0
    private let outputFormat: AVSampleFormat
    private var outputLayout: AVChannelLayout
    private let outputRate: Int32

    /// Creates a converter from the format of `frame` to `format`, `layout` and `rate`.
    init(from frame: Frame, to format: AVSampleFormat, layout: UnsafePointer<AVChannelLayout>, rate: Int32,
         path: String) throws(FFmpegError) {
        self.path = path
        outputFormat = format
        outputRate = rate
        outputLayout = AVChannelLayout()
        try check(av_channel_layout_copy(&outputLayout, layout), "av_channel_layout_copy", path: path,
                  kind: .encodeFailed)
        var inputLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inputLayout) }
        let source = frame.pointer.pointee
        if source.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inputLayout, source.ch_layout.nb_channels)
        } else {
            try check(av_channel_layout_copy(&inputLayout, &frame.pointer.pointee.ch_layout), "av_channel_layout_copy",
                      path: path, kind: .encodeFailed)
        }
        try check(swr_alloc_set_opts2(&pointer, &outputLayout, format, rate,
                                      &inputLayout, AVSampleFormat(rawValue: source.format), source.sample_rate, 0, nil),
                  "swr_alloc_set_opts2", path: path, kind: .unsupportedCodec)
        try check(swr_init(pointer), "swr_init", path: path, kind: .unsupportedCodec)
    }

    deinit {
        swr_free(&pointer)
        av_channel_layout_uninit(&outputLayout)
    }

    /// Converts `count` samples of `frame` starting at sample `offset`, or drains the converter
    /// when `frame` is `nil`.
    /// - Returns: a frame this converter owns holding the converted samples (its `nb_samples`).
    func convert(_ frame: Frame?, offset: Int32 = 0, count: Int32 = 0) throws(FFmpegError) -> Frame {
        let capacity = max(swr_get_out_samples(pointer, count), 0) + 32
        if output == nil || allocated < capacity {
            output = try Frame(samples: capacity, format: outputFormat, layout: &outputLayout, rate: outputRate,
                               path: path)
            allocated = capacity
        }
        let target = output!
        target.pointer.pointee.nb_samples = allocated
        try target.makeWritable(path: path)
        var planes: [UnsafePointer<UInt8>?] = []
        if let frame {
            let format = AVSampleFormat(rawValue: frame.pointer.pointee.format)
            let planar = av_sample_fmt_is_planar(format) != 0
            let channels = frame.pointer.pointee.ch_layout.nb_channels
            let step = Int(av_get_bytes_per_sample(format)) * Int(planar ? 1 : channels) * Int(offset)
            for index in 0..<Int(planar ? channels : 1) {
                planes.append(UnsafePointer(frame.pointer.pointee.extended_data[index]!.advanced(by: step)))
            }
        }
        let converted = planes.withUnsafeMutableBufferPointer { input in
            swr_convert(pointer, target.pointer.pointee.extended_data, capacity,
                        frame == nil ? nil : input.baseAddress, frame == nil ? 0 : count)
        }
        try check(converted, "swr_convert", path: path, kind: .encodeFailed)
        target.pointer.pointee.nb_samples = converted
        return target
    }
}
