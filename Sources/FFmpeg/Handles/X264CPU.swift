import Glibc

/// The CPU features libx264 is told to use: those it detects itself, less AVX-512 for pictures
/// whose rows of macroblocks it mishandles there.
///
/// x264 0.164 (r3095, Debian 12's) takes a row of macroblocks 8 at a time in its AVX-512
/// macroblock-tree code (`mbtree_propagate_list`) and does not stop at the row's end: when the
/// row's macroblock count is not a multiple of 8 it also adds in entries past the end, on the
/// last row from memory it never wrote. The stream then depended on what the heap held before
/// (timing, the process's other work): a 212-pixel-wide clip came out otherwise now and then. Its
/// AVX2 code finishes a row in C, and with it the bytes no longer depend on the heap.
/// Widths of whole groups of 8 macroblocks (128, 640, 1280, 1920 pixels) keep AVX-512: encoded
/// at `veryfast`, `medium` and `slow` under four malloc perturb patterns, each gave one stream.
/// On a CPU without AVX-512 this is what x264 would use anyway.
enum X264CPU {
    /// `X264_CPU_AVX512` in `x264.h`.
    private static let avx512: UInt32 = 1 << 16

    /// What x264 detects, or `nil` when this process has no `x264_cpu_detect` to call (x264
    /// linked into FFmpeg without its symbols).
    private static let detected: UInt32? = {
        guard let symbol = dlsym(nil, "x264_cpu_detect") else { return nil }
        let detect = unsafeBitCast(symbol, to: (@convention(c) () -> UInt32).self)
        return detect()
    }()

    /// The value of x264's `asm` parameter for pictures `width` pixels wide, or `nil` where x264
    /// must keep its own choice (no `x264_cpu_detect`).
    static func flags(width: Int) -> UInt32? {
        guard let detected else { return nil }
        let macroblocks = (width + 15) / 16
        return macroblocks % 8 == 0 ? detected : detected & ~avx512
    }
}
