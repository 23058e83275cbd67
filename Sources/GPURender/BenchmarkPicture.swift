import FoundationEssentials

/// The synthetic picture render benchmarks use on every path (`probe --benchmark`, `gpu-check`),
/// so that their figures are of the same pixels.
public enum BenchmarkPicture {
    /// A photo-sized RGB picture, `width × 3` bytes a row: patterns of bit mixing and gradients.
    public static func rgb(width: Int, height: Int) -> Data {
        var bytes = Data(count: width * height * 3)
        bytes.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 3
                    pixels[index] = UInt8(truncatingIfNeeded: x ^ y)
                    pixels[index + 1] = UInt8(truncatingIfNeeded: x * 2 + y)
                    pixels[index + 2] = UInt8(truncatingIfNeeded: (x + y) / 3)
                }
            }
        }
        return bytes
    }
}
