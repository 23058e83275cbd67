/// How ``SegmentEncoder`` compresses video.
///
/// Output is deterministic — equal input and settings give byte-identical files — with
/// `threads == 1` on the same FFmpeg and encoder build and the same CPU features (x264 picks its
/// SIMD code by the CPU, and its levels choose differently). libx264 runs without its AVX-512
/// code for pictures whose rows of 16-pixel macroblocks are not a multiple of 8 long (1920, 1280
/// and 640 pixels are): there it adds in memory it never wrote, and the bytes depended on what
/// the heap held. libx265 writes no "info" SEI, which would name its build and the encoding
/// machine's CPU features.
/// `libx265`, `libaom-av1` and `libsvtav1` are used only where ``FFmpeg/hasEncoder(_:)`` says
/// the build has them.
public struct VideoEncoding: Sendable, Codable, Equatable {
    /// FFmpeg's encoder name: `libx264`, `libx265`, `libaom-av1` or `libsvtav1`.
    public var codec: String
    /// Constant rate factor: lower is better and larger.
    public var crf: Int
    /// Speed preset in x264 terms (`ultrafast` … `veryslow`); AV1 encoders get the nearest speed.
    public var preset: String
    /// Encoder and decoder threads (x265's pools and frame threads, SVT-AV1's `lp`), never counted
    /// from the machine; 1 keeps output reproducible.
    public var threads: Int
    /// What to do with a PQ or HLG source: tone-map it to SDR (default) or keep it HDR.
    public var hdr: HDRMode

    /// Creates settings; the defaults are H.264, CRF 23, `veryfast`, one thread, HDR tone-mapped.
    public init(codec: String = "libx264", crf: Int = 23, preset: String = "veryfast", threads: Int = 1,
                hdr: HDRMode = .toneMap) {
        self.codec = codec
        self.crf = crf
        self.preset = preset
        self.threads = threads
        self.hdr = hdr
    }
}
