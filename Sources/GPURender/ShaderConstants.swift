// Push constants, field for field as the shaders in Sources/CShaders/glsl declare them.

struct TransformConstants {
    var sourceWidth: Int32, sourceHeight: Int32, channels: Int32
    var cropX: Int32, cropY: Int32, cropWidth: Int32, cropHeight: Int32
    var turns: Int32
    var shrinkX: Int32, shrinkY: Int32
    var width: Int32, height: Int32
    var premultiply: Int32
    var frames: Int32
    var sourceOffset: UInt32
}

/// lanczos.glsl's, for lanczos.comp, lanczos-plane.comp and lanczos-rgba8.comp (which alone
/// reads the last five).
struct LanczosConstants {
    var sourceWidth: Int32, sourceHeight: Int32
    var width: Int32, height: Int32
    var stride: Int32
    var vertical: Int32
    var taps: Int32
    var frames: Int32
    var tableOffset: Int32
    var unpremultiply: Int32 = 0, adjust: Int32 = 0
    var gain: Float = 1, offset: Float = 0, saturation: Float = 1
}

/// lanczos-source.glsl's.
struct SourceLanczosConstants {
    var width: Int32, height: Int32
    var stride: Int32
    var frames: Int32
    var taps: Int32
    var tableOffset: Int32
    var sourceOffset: UInt32
    var frameBytes: Int32
    var channels: Int32
    var origin: Int32, stepX: Int32, stepY: Int32
    var turnedWidth: Int32
    var premultiply: Int32
    var lastByte: Int32
}

/// lanczos-plane8.comp's.
struct PlaneConstants {
    var sourceHeight: Int32
    var width: Int32, height: Int32
    var taps: Int32
    var tableOffset: Int32
    var frames: Int32, pictures: Int32
    var frameWords: Int32, planeWord: Int32, planeGapWords: Int32
}

/// lanczos-yuv420.comp's.
struct ColourPlanesConstants {
    var width: Int32, height: Int32
    var lumaRows: Int32, chromaRows: Int32
    var lumaTaps: Int32, chromaTaps: Int32
    var lumaTable: Int32, chromaTable: Int32
    var frames: Int32
    var lumaStride: Int32, chromaStride: Int32
    var lumaR: Float, lumaG: Float, lumaB: Float, lumaOffset: Float
    var blueR: Float, blueG: Float, blueB: Float
    var redR: Float, redG: Float, redB: Float
    var lumaGain: Float, redCr: Float, greenCb: Float, greenCr: Float, blueCb: Float
    var gain: Float, offset: Float, saturation: Float
}

/// yuv420.comp's.
struct YUVConstants {
    var width: Int32, height: Int32
    var lumaStride: Int32, chromaStride: Int32
    var chroma: Int32
    var frames: Int32
    var lumaR: Float, lumaG: Float, lumaB: Float, lumaOffset: Float
    var blueR: Float, blueG: Float, blueB: Float
    var redR: Float, redG: Float, redB: Float
}
