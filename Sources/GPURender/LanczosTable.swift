import Glibc

/// The weights of one axis of the Lanczos3 resize, worked out once per size on the CPU in
/// double precision, as the `lanczos` shader reads them.
///
/// Output sample `o` of `count` sits at source position `c = (o + 0.5) · scale − 0.5` (centres
/// aligned). When reducing (`scale > 1`) the kernel is stretched by `scale`, so it also filters
/// out what the smaller picture cannot hold: source sample `i` weighs `L((i − c) / s)` with
/// `s = max(scale, 1)` and `L(x) = sinc(x) · sinc(x / 3)` for |x| < 3, else 0. Weights are
/// normalised to sum to 1.
///
/// Each output sample's row is read as 4-float texels: the first source index (then three
/// zeros), then the weights four to a texel, the last texel padded with zero weights, so the
/// shader fetches one texel per four taps.
struct LanczosTable {
    /// Weights per output sample.
    let taps: Int
    /// `count` rows of ``stride`` floats.
    let values: [Float]

    /// Floats a row: one texel for the first source index and one per four weights.
    var stride: Int { Self.stride(taps: taps) }
    static func stride(taps: Int) -> Int { 4 * (1 + (taps + 3) / 4) }

    private init(taps: Int, values: [Float]) {
        self.taps = taps
        self.values = values
    }

    init(count: Int, scale: Double) {
        let stretch = max(scale, 1)
        let taps = Self.taps(scale: scale)
        let stride = Self.stride(taps: taps)
        var values = [Float]()
        values.reserveCapacity(count * stride)
        for output in 0..<count {
            let centre = (Double(output) + 0.5) * scale - 0.5
            // Without a change of scale each output sample is its source sample, alone.
            let first = scale == 1 ? output : Int((centre - 3 * stretch).rounded(.up))
            let weights = (0..<taps).map { Self.lanczos3((Double(first + $0) - centre) / stretch) }
            let total = weights.reduce(0, +)
            values += [Float(first), 0, 0, 0]
            values += weights.map { Float($0 / total) }
            values += repeatElement(0, count: stride - 4 - taps)
        }
        self.taps = taps
        self.values = values
    }

    /// The first source sample output sample `output` reads.
    func first(_ output: Int) -> Int { Int(values[output * stride]) }

    /// The table of output samples `outputs` alone, their first source samples moved by `shift`.
    func rows(_ outputs: Range<Int>, shiftedBy shift: Int) -> LanczosTable {
        var values = Array(values[outputs.lowerBound * stride..<outputs.upperBound * stride])
        for row in 0..<outputs.count { values[row * stride] += Float(shift) }
        return LanczosTable(taps: taps, values: values)
    }

    /// Its size in bytes.
    var byteCount: Int { values.count * MemoryLayout<Float>.size }

    /// The Lanczos kernel with three lobes.
    static func lanczos3(_ x: Double) -> Double {
        if abs(x) < 1e-9 { return 1 }
        guard abs(x) < 3 else { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// Weights per output sample for a reduction by `scale`: as many samples as the stretched
    /// kernel's open support `(c − 3s, c + 3s)` can hold, `⌈6s⌉` (a sample on either end weighs
    /// nothing), or one when the scale does not change (the weight of the sample itself).
    static func taps(scale: Double) -> Int {
        scale == 1 ? 1 : Int((6 * max(scale, 1)).rounded(.up))
    }

    /// The size in bytes of the table for `count` samples, without making it.
    static func byteCount(count: Int, scale: Double) -> Int {
        count * stride(taps: taps(scale: scale)) * MemoryLayout<Float>.size
    }
}
