import Glibc

/// The CPU features libx264 is told to use: those it detects itself, less AVX-512.
///
/// x264 0.164 (r3095, Debian 12's) reads memory it never wrote in its AVX-512 code. On a CPU
/// with AVX-512 the same pictures and settings then gave, now and then, another (equally
/// decodable) stream, depending on what the heap held before: timing and the process's other work.
/// With the same detection less AVX-512 the bytes no longer depend on the heap (`MALLOC_PERTURB_`
/// changes nothing). On a CPU without AVX-512 this is what x264 would use anyway.
enum X264CPU {
    /// `X264_CPU_AVX512` in `x264.h`.
    private static let avx512: UInt32 = 1 << 16

    /// The value of x264's `asm` parameter, or `nil` when this process has no `x264_cpu_detect`
    /// to call (x264 linked into FFmpeg without its symbols), where x264 keeps its own choice.
    static let flags: UInt32? = {
        guard let symbol = dlsym(nil, "x264_cpu_detect") else { return nil }
        let detect = unsafeBitCast(symbol, to: (@convention(c) () -> UInt32).self)
        return detect() & ~avx512
    }()
}
