import EngineTestKit
import FFmpeg
import MediaTestKit

extension ColourDefinition {
    /// The edited colour of `rgb` by ``VideoEdit``'s colour steps.
    static func apply(_ edit: VideoEdit, to rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let result = apply(edit, to: SIMD3(rgb.0, rgb.1, rgb.2))
        return (result.x, result.y, result.z)
    }

    /// The edited colour of `rgb` by ``VideoEdit``'s colour steps.
    static func apply(_ edit: VideoEdit, to rgb: SIMD3<Double>) -> SIMD3<Double> {
        apply(exposure: edit.exposure, contrast: edit.contrast, saturation: edit.saturation, to: rgb)
    }
}
