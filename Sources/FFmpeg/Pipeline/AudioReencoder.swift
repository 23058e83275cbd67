import CFFmpegShim
import MediaInputLimits

/// Decodes an audio stream, cuts it to the sample, converts it for AAC and encodes it into a muxer.
final class AudioReencoder {
    private let input: InputFile
    private let decoder: StreamDecoder
    private let muxer: OutputFile
    private let bitrate: Int
    private let inputRate: Int32
    private let outputRate: Int32
    private var layout = AVChannelLayout()

    /// Prepares to re-encode stream `index` of `input` at `bitrate` bits per second.
    init(input: InputFile, stream index: Int32, limits: MediaLimits, bitrate: Int, muxer: OutputFile)
        throws(FFmpegError)
    {
        self.input = input
        self.muxer = muxer
        self.bitrate = bitrate
        decoder = try StreamDecoder(input: input, streamIndex: index, limits: limits, threads: 1)
        let parameters = input.stream(index).pointee.codecpar.pointee
        inputRate = parameters.sample_rate
        outputRate = CodecContext.aacSampleRates.contains(inputRate) ? inputRate : 48000
        av_channel_layout_default(&layout, parameters.ch_layout.nb_channels >= 2 ? 2 : 1)
    }

    deinit { av_channel_layout_uninit(&layout) }

    /// Encodes the samples in [`start`, `end`), timed from `start`: a track that begins after
    /// `start` begins as late in the output.
    /// - Returns: the number of samples encoded.
    func run(from start: Double, to end: Double?) throws(FFmpegError) -> Int {
        guard inputRate > 0 else {
            throw FFmpegError(.unsupportedCodec, operation: "decode audio", path: input.path,
                              reason: "the audio stream has no sample rate")
        }
        let encoder = try CodecContext.aacEncoder(bitrate: bitrate, sampleRate: outputRate, layout: &layout,
                                                  globalHeader: muxer.wantsGlobalHeader, path: muxer.path)
        let stream = try muxer.addStream(encoder: encoder)
        try StreamLabels.copy(from: decoder.stream, to: stream, path: muxer.path)
        try muxer.writeHeader()
        let writer = PacketWriter(encoder: encoder, muxer: muxer, stream: stream, nominalDuration: 0, stop: input.stop)
        let fifo = AudioFifo(format: AV_SAMPLE_FMT_FLTP, channels: layout.nb_channels, path: muxer.path)
        let frameSize = encoder.pointer.pointee.frame_size > 0 ? encoder.pointer.pointee.frame_size : 1024
        let chunk = try Frame(samples: frameSize, format: AV_SAMPLE_FMT_FLTP, layout: &layout, rate: outputRate,
                              path: muxer.path)
        // The output time of the first sample: 0, or later when the track starts after `start`.
        var origin: Int64 = 0
        var encoded: Int64 = 0
        func send(final: Bool) throws(FFmpegError) {
            while fifo.count >= frameSize || (final && fifo.count > 0) {
                chunk.pointer.pointee.nb_samples = frameSize
                try fifo.read(into: chunk, count: min(frameSize, fifo.count))
                chunk.pointer.pointee.pts = origin + encoded
                encoded += Int64(chunk.pointer.pointee.nb_samples)
                try writer.encode(chunk)
            }
        }

        // Times in samples at the input rate, on the stream's timeline.
        let samples = AVRational(num: 1, den: inputRate)
        let timeBase = decoder.stream.pointee.time_base
        let startSample = samples.timestamp(start)
        let endSample = end.map { samples.timestamp($0) }
        // Seek a little early so the decoder has settled by `start`.
        if start > 0 { try decoder.seek(to: timeBase.timestamp(max(0, start - 0.25))) }
        let frame = Frame()
        var resampler: Resampler?
        var next: Int64?
        while try decoder.next(into: frame) {
            try input.stop.check(path: input.path)
            let count = Int64(frame.pointer.pointee.nb_samples)
            let first = frame.time.map { av_rescale_q($0, timeBase, samples) } ?? next ?? 0
            next = first + count
            if let endSample, first >= endSample { break }
            let from = max(0, startSample - first)
            let to = min(count, endSample.map { $0 - first } ?? count)
            guard to > from else { continue }
            if resampler == nil {
                origin = av_rescale_q(first + from - startSample, samples, AVRational(num: 1, den: outputRate))
                resampler = try Resampler(from: frame, to: AV_SAMPLE_FMT_FLTP, layout: &layout, rate: outputRate,
                                          path: input.path)
            }
            try fifo.write(try resampler!.convert(frame, offset: Int32(from), count: Int32(to - from)))
            try send(final: false)
        }
        if let resampler { try fifo.write(try resampler.convert(nil)) }
        try send(final: true)
        try writer.finish()
        return Int(encoded)
    }
}
