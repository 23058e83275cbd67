/// How the GPU writes RGB as YUV for an encoder: a matrix, given by its luma weights, and a range.
///
/// With `Kg = 1 − Kr − Kb` and `Y′ = Kr·R + Kg·G + Kb·B` on 8-bit values, full range writes
/// `Y = Y′`, `Cb = 128 + (B − Y′) / (2 − 2·Kb)`, `Cr = 128 + (R − Y′) / (2 − 2·Kr)`; limited range
/// scales luma by 219/255 from 16 and chroma by 224/255 around 128 (ITU-R BT.601 and BT.709).
public struct YUVMatrix: Sendable, Equatable {
    /// The luma weights of red and blue.
    public var lumaRed: Double, lumaBlue: Double
    /// Whether luma and chroma use all of 0…255 (else luma 16…235, chroma 16…240).
    public var fullRange: Bool

    /// A matrix with these weights and range.
    public init(lumaRed: Double, lumaBlue: Double, fullRange: Bool) {
        self.lumaRed = lumaRed
        self.lumaBlue = lumaBlue
        self.fullRange = fullRange
    }

    /// ITU-R BT.601, limited range.
    public static let bt601 = YUVMatrix(lumaRed: 0.299, lumaBlue: 0.114, fullRange: false)
    /// ITU-R BT.709, limited range.
    public static let bt709 = YUVMatrix(lumaRed: 0.2126, lumaBlue: 0.0722, fullRange: false)

    /// The rows that take (R, G, B) to Y, Cb and Cr before their offsets, and luma's offset
    /// (chroma's is 128).
    var rows: (luma: SIMD3<Double>, blue: SIMD3<Double>, red: SIMD3<Double>, lumaOffset: Double) {
        let (kr, kb) = (lumaRed, lumaBlue)
        let weights = SIMD3(kr, 1 - kr - kb, kb)
        let (lumaScale, chromaScale) = scales
        let blue = (SIMD3(0, 0, 1) - weights) * (chromaScale / (2 - 2 * kb))
        let red = (SIMD3(1, 0, 0) - weights) * (chromaScale / (2 - 2 * kr))
        return (weights * lumaScale, blue, red, fullRange ? 0 : 16)
    }

    /// The way back from YUV to RGB, as ``rows`` inverted: with `Y′ = lumaGain·(Y − lumaOffset)`,
    /// `R = Y′ + redCr·(Cr − 128)`, `G = Y′ + greenCb·(Cb − 128) + greenCr·(Cr − 128)`,
    /// `B = Y′ + blueCb·(Cb − 128)`.
    var inverse: (lumaGain: Double, redCr: Double, greenCb: Double, greenCr: Double, blueCb: Double) {
        let (kr, kb) = (lumaRed, lumaBlue)
        let kg = 1 - kr - kb
        let (lumaScale, chromaScale) = scales
        let (redCr, blueCb) = ((2 - 2 * kr) / chromaScale, (2 - 2 * kb) / chromaScale)
        return (1 / lumaScale, redCr, -kb * blueCb / kg, -kr * redCr / kg, blueCb)
    }

    /// How much of 0…255 luma and chroma span: all of it, or 219/255 and 224/255 in limited range.
    private var scales: (luma: Double, chroma: Double) { fullRange ? (1, 1) : (219.0 / 255, 224.0 / 255) }
}
