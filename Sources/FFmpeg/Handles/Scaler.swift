import CFFmpegShim

/// An owned `SwsContext` converting pictures of one size and format into another with accurate
/// rounding, Lanczos filtered when the size changes; freed with `sws_freeContext`.
///
/// Every YUV ↔ RGB step uses the picture's own matrix and range (``PictureColour``), set up as
/// the `ffmpeg` tool's `scale` filter does: the ranges before the context is initialised, the
/// matrix coefficients after. RGB is always full range.
final class Scaler {
    private let pointer: OpaquePointer
    let source: (width: Int32, height: Int32, format: AVPixelFormat)
    let target: (width: Int32, height: Int32, format: AVPixelFormat)
    private let path: String

    /// Creates a converter from `source` to `target`.
    /// - Parameters:
    ///   - colour: the matrix and range of the YUV side (both sides when both are YUV: a
    ///     conversion between YUV formats keeps the matrix and the range).
    init(
        from source: (width: Int32, height: Int32, format: AVPixelFormat),
        to target: (width: Int32, height: Int32, format: AVPixelFormat), colour: PictureColour, path: String
    ) throws(FFmpegError) {
        // Lanczos where the size changes; a format change alone only resamples chroma.
        let resizes = source.width != target.width || source.height != target.height
        var flags = (resizes ? SWS_LANCZOS : SWS_BICUBIC) | SWS_ACCURATE_RND
        if target.format == AV_PIX_FMT_RGB24 { flags |= SWS_FULL_CHR_H_INT }
        if source.format == AV_PIX_FMT_RGB24 { flags |= SWS_FULL_CHR_H_INP }
        let isRGB = { (format: AVPixelFormat) in format == AV_PIX_FMT_RGB24 }
        let sourceFull = isRGB(source.format) || colour.fullRange
        let targetFull = isRGB(target.format) || colour.fullRange
        guard let context = sws_alloc_context() else { fatalError("sws_alloc_context: out of memory") }
        pointer = context
        self.source = source
        self.target = target
        self.path = path
        let settings: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)), ("src_format", Int64(source.format.rawValue)),
            ("dstw", Int64(target.width)), ("dsth", Int64(target.height)), ("dst_format", Int64(target.format.rawValue)),
            ("sws_flags", Int64(flags)), ("src_range", sourceFull ? 1 : 0), ("dst_range", targetFull ? 1 : 0),
        ]
        for (name, value) in settings {
            try check(av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0), "av_opt_set_int \(name)", path: path,
                      kind: .encodeFailed)
        }
        guard sws_init_context(context, nil, nil) >= 0 else {
            throw FFmpegError(.unsupportedCodec, operation: "sws_init_context", path: path,
                              code: shim_AVERROR(EINVAL),
                              reason: "cannot convert \(source.width)×\(source.height) "
                                  + "\(av_get_pix_fmt_name(source.format).map { String(cString: $0) } ?? "unknown") pictures")
        }
        // The matrix matters only between YUV and RGB (for YUV → YUV swscale answers -1: nothing to set).
        if isRGB(source.format) != isRGB(target.format) {
            let coefficients = colour.swscaleCoefficients
            try check(sws_setColorspaceDetails(context, coefficients, sourceFull ? 1 : 0, coefficients, targetFull ? 1 : 0,
                                               0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails", path: path, kind: .unsupportedCodec)
        }
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
