import FFmpeg
import Foundation

/// The colour edit's definition on 8-bit values, written out independently of the bridge's C.
enum ColourDefinition {
    static func apply(_ edit: VideoEdit, to rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        func clamp(_ v: Double) -> Double { min(255, max(0, v)) }
        let gain = pow(2, edit.exposure)
        var channels = [rgb.0, rgb.1, rgb.2].map { v in clamp((clamp(v * gain) - 128) * edit.contrast + 128) }
        let luma = 0.299 * channels[0] + 0.587 * channels[1] + 0.114 * channels[2]
        channels = channels.map { clamp(luma + ($0 - luma) * edit.saturation).rounded() }
        return (channels[0], channels[1], channels[2])
    }
}
