import FFmpeg
import Foundation

/// The colour edit's definition on 8-bit values, written out independently of the bridge's C, and
/// the same as libvips' path: composed in floating point without clamping between steps, then
/// rounded half to even and clamped to 0…255 once.
enum ColourDefinition {
    static func apply(_ edit: VideoEdit, to rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let gain = pow(2, edit.exposure)
        var channels = [rgb.0, rgb.1, rgb.2].map { v in (v * gain - 128) * edit.contrast + 128 }
        let luma = 0.299 * channels[0] + 0.587 * channels[1] + 0.114 * channels[2]
        channels = channels.map { min(255, max(0, (luma + ($0 - luma) * edit.saturation).rounded(.toNearestOrEven))) }
        return (channels[0], channels[1], channels[2])
    }
}
