import Foundation

/// The colour edit's definition on 8-bit RGB values, written out independently of the product's
/// code, and the same as libvips' path: exposure `e` multiplies by 2^e, contrast `c` maps
/// v → (v − 128)·c + 128, saturation `s` maps v → Y + (v − Y)·s with Rec.601 luma; composed in
/// floating point without clamping between steps, then rounded half to even and clamped to
/// 0…255 once.
public enum ColourDefinition {
    /// The edited colour of `rgb`.
    public static func apply(exposure: Double, contrast: Double, saturation: Double, to rgb: SIMD3<Double>) -> SIMD3<Double> {
        let gain = pow(2, exposure)
        let c = (rgb * gain - 128) * contrast + 128
        let luma = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
        let saturated = luma + (c - luma) * saturation
        return SIMD3(saturated.x.rounded(.toNearestOrEven), saturated.y.rounded(.toNearestOrEven),
                     saturated.z.rounded(.toNearestOrEven)).clamped(lowerBound: SIMD3(repeating: 0),
                                                                     upperBound: SIMD3(repeating: 255))
    }
}
