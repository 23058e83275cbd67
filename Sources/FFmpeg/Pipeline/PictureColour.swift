import CFFmpegShim

/// How a stream's YUV values stand for colours: the matrix and range every YUV ↔ RGB step uses,
/// and the primaries and transfer the output carries on.
///
/// An unspecified (or unusable) matrix is read as BT.601, FFmpeg's convention at every picture
/// size: swscale's default, what the `ffmpeg` tool decodes untagged files with and what it writes
/// into the untagged files it converts from RGB. An unspecified range is limited, except for the
/// `yuvj` formats, which are full range.
struct PictureColour: Equatable {
    /// The matrix, one swscale has coefficients for; never unspecified.
    var matrix: AVColorSpace
    /// Whether the values use the full 0…255 range rather than the limited 16…235 (luma).
    var fullRange: Bool
    /// The primaries, as the source says (possibly unspecified).
    var primaries: AVColorPrimaries
    /// The transfer function, as the source says (possibly unspecified).
    var transfer: AVColorTransferCharacteristic

    /// SDR BT.709 in limited range, what tone-mapping produces.
    static let bt709 = PictureColour(matrix: AVCOL_SPC_BT709, fullRange: false, primaries: AVCOL_PRI_BT709,
                                     transfer: AVCOL_TRC_BT709)

    init(matrix: AVColorSpace, fullRange: Bool, primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic) {
        self.matrix = Self.weights[matrix] == nil ? AVCOL_SPC_SMPTE170M : matrix
        self.fullRange = fullRange
        self.primaries = primaries
        self.transfer = transfer
    }

    /// The colour a stream's parameters describe (the container's tags, else the bitstream's).
    init(_ parameters: AVCodecParameters) {
        let format = AVPixelFormat(rawValue: parameters.format)
        self.init(matrix: parameters.color_space,
                  fullRange: parameters.color_range == AVCOL_RANGE_JPEG || Self.fullRangeFormats.contains(format),
                  primaries: parameters.color_primaries, transfer: parameters.color_trc)
    }

    /// The `yuvj` formats, full range by definition.
    private static let fullRangeFormats: Set<AVPixelFormat> = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P,
                                                               AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
                                                               AV_PIX_FMT_YUVJ411P]

    /// Luma weights (Kr, Kb) of the matrices swscale converts with.
    private static let weights: [AVColorSpace: (red: Double, blue: Double)] = [
        AVCOL_SPC_BT709: (0.2126, 0.0722), AVCOL_SPC_FCC: (0.30, 0.11), AVCOL_SPC_BT470BG: (0.299, 0.114),
        AVCOL_SPC_SMPTE170M: (0.299, 0.114), AVCOL_SPC_SMPTE240M: (0.212, 0.087),
        AVCOL_SPC_BT2020_NCL: (0.2627, 0.0593),
    ]

    /// The matrix's luma weights of red and blue (green's is what is left).
    var lumaWeights: (red: Double, blue: Double) { Self.weights[matrix]! }

    /// The range as FFmpeg names it.
    var range: AVColorRange { fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }

    /// Whether the transfer is a high dynamic range one: PQ (SMPTE ST 2084) or HLG (ARIB STD-B67).
    var isHDR: Bool { transfer == AVCOL_TRC_SMPTE2084 || transfer == AVCOL_TRC_ARIB_STD_B67 }

    /// swscale's coefficient table for the matrix (its `SWS_CS_*` numbers are FFmpeg's matrix numbers).
    var swscaleCoefficients: UnsafePointer<Int32> { sws_getCoefficients(Int32(matrix.rawValue)) }

    /// Writes the description into `frame`, so that filters reading a frame's tags see it.
    func tag(_ frame: Frame) {
        let p = frame.pointer
        p.pointee.colorspace = matrix
        p.pointee.color_range = range
        p.pointee.color_primaries = primaries
        p.pointee.color_trc = transfer
    }
}

extension AVColorSpace: @retroactive Hashable {}
extension AVPixelFormat: @retroactive Hashable {}
