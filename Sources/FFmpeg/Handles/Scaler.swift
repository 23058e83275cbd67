import CFFmpegShim

/// An owned `SwsContext` converting pictures of one size and format into another with accurate
/// rounding, Lanczos filtered when the size changes; freed with `sws_freeContext`.
final class Scaler {
    private let pointer: OpaquePointer
    let source: (width: Int32, height: Int32, format: AVPixelFormat)
    let target: (width: Int32, height: Int32, format: AVPixelFormat)
    private let path: String

    /// Creates a converter from `source` to `target`.
    /// - Parameter replicatingChroma: for a format change alone from 4:2:0: give every pixel of a
    ///   2 × 2 block its block's chroma sample instead of interpolating, so that averaging the
    ///   block again (as the GPU path's RGB → YUV 4:2:0 does) gives back the same sample.
    init(
        from source: (width: Int32, height: Int32, format: AVPixelFormat),
        to target: (width: Int32, height: Int32, format: AVPixelFormat), replicatingChroma: Bool = false, path: String
    ) throws(FFmpegError) {
        // Lanczos where the size changes; a format change alone only resamples chroma.
        let resizes = source.width != target.width || source.height != target.height
        var flags = (resizes ? SWS_LANCZOS : SWS_BICUBIC) | SWS_ACCURATE_RND
        if target.format == AV_PIX_FMT_RGB24 { flags |= SWS_FULL_CHR_H_INT }
        if source.format == AV_PIX_FMT_RGB24 { flags |= SWS_FULL_CHR_H_INP }
        if replicatingChroma && !resizes { flags = SWS_POINT }
        guard let context = sws_getContext(source.width, source.height, source.format,
                                           target.width, target.height, target.format,
                                           Int32(flags), nil, nil, nil) else {
            throw FFmpegError(.unsupportedCodec, operation: "sws_getContext", path: path,
                              code: shim_AVERROR(EINVAL),
                              reason: "cannot convert \(source.width)×\(source.height) "
                                  + "\(av_get_pix_fmt_name(source.format).map { String(cString: $0) } ?? "unknown") pictures")
        }
        pointer = context
        self.source = source
        self.target = target
        self.path = path
    }

    deinit { sws_freeContext(pointer) }

    /// Whether this converter takes pictures like `frame`.
    func accepts(_ frame: Frame) -> Bool {
        frame.width == source.width && frame.height == source.height && frame.pixelFormat == source.format
    }

    /// Converts `frame` into `destination`, which has the target's size and format.
    func scale(_ frame: Frame, into destination: Frame) throws(FFmpegError) {
        try destination.makeWritable(path: path)
        try check(sws_scale_frame(pointer, destination.pointer, frame.pointer), "sws_scale_frame", path: path,
                  kind: .encodeFailed)
    }
}
