import Glibc

/// The weights of one axis of the Lanczos3 resize, worked out once per size on the CPU in
/// double precision, as the `lanczos` shader reads them.
///
/// Output sample `o` of `count` sits at source position `c = (o + 0.5) · scale − 0.5` (centres
/// aligned). When reducing (`scale > 1`) the kernel is stretched by `scale`, so it also filters
/// out what the smaller picture cannot hold: source sample `i` weighs `L((i − c) / s)` with
/// `s = max(scale, 1)` and `L(x) = sinc(x) · sinc(x / 3)` for |x| < 3, else 0. Weights are
/// normalised to sum to 1.
struct LanczosTable {
    /// Weights per output sample (the first entry of each row is the first source index).
    let taps: Int
    /// `count` rows of `taps + 1` floats.
    let values: [Float]

    private init(taps: Int, values: [Float]) {
        self.taps = taps
        self.values = values
    }

    init(count: Int, scale: Double) {
        let stretch = max(scale, 1)
        let taps = Self.taps(scale: scale)
        var values = [Float]()
        values.reserveCapacity(count * (taps + 1))
        for output in 0..<count {
            let centre = (Double(output) + 0.5) * scale - 0.5
            let first = Int((centre - 3 * stretch).rounded(.up))
            let weights = (0..<taps).map { Self.lanczos3((Double(first + $0) - centre) / stretch) }
            let total = weights.reduce(0, +)
            values.append(Float(first))
            values += weights.map { Float($0 / total) }
        }
        self.taps = taps
        self.values = values
    }

    /// The first source sample output sample `output` reads.
    func first(_ output: Int) -> Int { Int(values[output * (taps + 1)]) }

    /// The table of output samples `outputs` alone, their first source samples moved by `shift`.
    func rows(_ outputs: Range<Int>, shiftedBy shift: Int) -> LanczosTable {
        var values = Array(values[outputs.lowerBound * (taps + 1)..<outputs.upperBound * (taps + 1)])
        for row in 0..<outputs.count { values[row * (taps + 1)] += Float(shift) }
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

    /// Weights per output sample for a reduction by `scale`: the stretched kernel's width.
    static func taps(scale: Double) -> Int {
        Int((6 * max(scale, 1)).rounded(.up)) + 1
    }

    /// The size in bytes of the table for `count` samples, without making it.
    static func byteCount(count: Int, scale: Double) -> Int {
        count * (taps(scale: scale) + 1) * MemoryLayout<Float>.size
    }
}
