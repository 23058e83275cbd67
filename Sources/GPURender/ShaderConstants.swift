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

struct LanczosConstants {
    var sourceWidth: Int32, sourceHeight: Int32
    var width: Int32, height: Int32
    var vertical: Int32
    var taps: Int32
    var frames: Int32
    var tableOffset: Int32
}

struct FinishConstants {
    var count: Int32
    var unpremultiply: Int32
    var adjust: Int32
    var gain: Float, offset: Float, saturation: Float
}

struct YUVConstants {
    var width: Int32, height: Int32
    var lumaStride: Int32, chromaStride: Int32
    var chroma: Int32
    var frames: Int32
    var lumaR: Float, lumaG: Float, lumaB: Float, lumaOffset: Float
    var blueR: Float, blueG: Float, blueB: Float
    var redR: Float, redG: Float, redB: Float
    var planar: Int32
    var lumaGain: Float, redCr: Float, greenCb: Float, greenCr: Float, blueCb: Float
    var gain: Float, offset: Float, saturation: Float
}

struct PlaneConstants {
    var width: Int32, height: Int32
    var stride: Int32
    var frameWords: Int32, planeWord: Int32
    var frames: Int32
}
