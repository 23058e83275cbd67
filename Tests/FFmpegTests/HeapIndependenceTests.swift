import FFmpeg
import Foundation
import Glibc
import MediaTestKit
import Testing

/// Encoded bytes must not depend on what the process's heap held before: x264 0.164's AVX-512
/// macroblock-tree code adds in memory it never wrote when a row of macroblocks is not a multiple
/// of 8, so on a CPU with AVX-512 the same pictures and settings gave another file now and then
/// (a resumed GPU export differed from an uninterrupted one).
///
/// glibc's `M_PERTURB` fills every block malloc hands out (and every block freed) with a pattern:
/// encoding under different patterns stands for different earlier histories of the heap, and
/// does so deterministically.
@Suite(.serialized) struct HeapIndependenceTests {
    let fixtures = Fixtures.shared

    /// 212×160 (14 macroblocks a row: x264 without AVX-512), as GPUPathTests' clip, and 128×96
    /// (8 a row: AVX-512 kept).
    @Test(arguments: [VideoEdit(maxHeight: 160, saturation: 1.3), VideoEdit(maxWidth: 128)])
    func aSegmentEncodesToTheSameBytesWhateverTheHeapHeld(edit: VideoEdit) throws {
        let scratch = fixtures.scratch()
        var files: [Int32: Data] = [:]
        for pattern: Int32 in [0x01, 0x55, 0xaa, 0xff] {
            let output = scratch.path("\(pattern).mp4")
            try MallocPerturbation.with(pattern) {
                try SegmentEncoder.encode(source: fixtures.clip, from: 0, to: nil, edit: edit, output: output)
            }
            files[pattern] = try Data(contentsOf: URL(fileURLWithPath: output))
        }
        #expect(!files[0x01]!.isEmpty)
        #expect(Set(files.values).count == 1, "the encoded bytes differ with what malloc's blocks held")
    }
}

/// glibc's `mallopt(M_PERTURB, byte)`, which Swift's Glibc module leaves out (`malloc.h`).
private enum MallocPerturbation {
    /// `M_PERTURB` in glibc's `malloc.h`.
    private static let option: Int32 = -6
    private static let mallopt: @convention(c) (Int32, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "mallopt") else { fatalError("glibc has no mallopt: \(String(cString: dlerror()))") }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// Runs `body` with malloc filling new and freed blocks with `pattern`, then turns it off.
    static func with<Result>(_ pattern: Int32, _ body: () throws -> Result) rethrows -> Result {
        precondition(mallopt(option, pattern) == 1, "mallopt(M_PERTURB) refused")
        defer { _ = mallopt(option, 0) }
        return try body()
    }
}
