import Glibc

/// What the GPU does to a batch of pictures of one size, in this order: crop, clockwise quarter
/// turns, resize to the output size, then exposure, contrast and saturation.
///
/// The resize is the project's one definition (the CPU path's libvips `resize`): when reducing
/// by more than 2× along an axis, first a box average over whole factors `k = ⌊scale / 2⌋`, then
/// Lanczos3 (a = 3) over the rest, the kernel stretched by the remaining reduction, with
/// alpha premultiplied; the 8-bit result is rounded half to even before the colour steps.
public struct RenderRecipe: Sendable, Equatable, Codable {
    /// A rectangle of the source picture.
    public struct Rect: Sendable, Equatable, Codable {
        /// The left and top edges and the size, in pixels.
        public var x: Int, y: Int, width: Int, height: Int

        /// A rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The pictures' size as uploaded.
    public var sourceWidth: Int, sourceHeight: Int
    /// Bytes per uploaded pixel: 1 (grey, or one plane of YUV pictures), 3 (RGB) or 4 (RGBA,
    /// alpha premultiplied while resizing).
    public var channels: Int
    /// The part of the source kept.
    public var crop: Rect
    /// Clockwise quarter turns after the crop, 0…3.
    public var quarterTurns: Int
    /// The output size (after turning); at most the turned crop's size.
    public var width: Int, height: Int
    /// Exposure in stops, contrast and saturation factors (0, 1, 1 change nothing).
    public var exposure: Double, contrast: Double, saturation: Double

    /// A recipe; without a crop the whole picture is kept, without a size the output is the
    /// turned crop's size, and the colour defaults change nothing.
    public init(sourceWidth: Int, sourceHeight: Int, channels: Int, crop: Rect? = nil, quarterTurns: Int = 0,
                width: Int? = nil, height: Int? = nil, exposure: Double = 0, contrast: Double = 1, saturation: Double = 1) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.channels = channels
        let crop = crop ?? Rect(x: 0, y: 0, width: sourceWidth, height: sourceHeight)
        self.crop = crop
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        let swaps = self.quarterTurns % 2 == 1
        self.width = width ?? (swaps ? crop.height : crop.width)
        self.height = height ?? (swaps ? crop.width : crop.height)
        self.exposure = exposure
        self.contrast = contrast
        self.saturation = saturation
    }

    /// The crop's size after turning.
    var turnedWidth: Int { quarterTurns % 2 == 1 ? crop.height : crop.width }
    var turnedHeight: Int { quarterTurns % 2 == 1 ? crop.width : crop.height }

    /// Where the turned crop's pixels lie in the source: turned (x, y) is source pixel
    /// `origin + x·stepX + y·stepY` (pixels counted row by row). Clockwise turns: one turn takes
    /// turned (x, y) from the crop's (y, h − 1 − x), two from (w − 1 − x, h − 1 − y), three from
    /// (w − 1 − y, x).
    var sourceMap: (origin: Int, stepX: Int, stepY: Int) {
        let (left, top, right, bottom) = (crop.x, crop.y, crop.x + crop.width - 1, crop.y + crop.height - 1)
        return switch quarterTurns {
        case 1: (bottom * sourceWidth + left, -sourceWidth, 1)
        case 2: (bottom * sourceWidth + right, -1, -sourceWidth)
        case 3: (top * sourceWidth + right, sourceWidth, -1)
        default: (top * sourceWidth + left, 1, sourceWidth)
        }
    }

    /// Whether the output size differs from the turned crop's.
    var resizes: Bool { width != turnedWidth || height != turnedHeight }

    /// Whether the colour steps change anything.
    var adjustsColour: Bool { exposure != 0 || contrast != 1 || saturation != 1 }

    /// Exposure and contrast as one gain and offset on 8-bit values: `v·2^e·c + 128·(1 − c)`.
    var gain: Double { pow(2, exposure) * contrast }
    var offset: Double { 128 * (1 - contrast) }

    /// The whole box-shrink factors, per axis: libvips' rule for Lanczos3, which leaves a 2–3×
    /// reduction to the kernel.
    var shrink: (x: Int, y: Int) {
        guard resizes else { return (1, 1) }
        return (max(1, turnedWidth / (2 * width)), max(1, turnedHeight / (2 * height)))
    }

    /// The picture's size after the box shrink (the last box may hang over the edge).
    var shrunkWidth: Int { (turnedWidth + shrink.x - 1) / shrink.x }
    var shrunkHeight: Int { (turnedHeight + shrink.y - 1) / shrink.y }

    /// The recipe of the chroma planes of YUV 4:2:0 pictures whose luma this recipe describes:
    /// every size halved and rounded up, the crop's corner halved and rounded down (as FFmpeg
    /// crops 4:2:0 frames), no colour steps. With `fullSize` the output keeps the luma's size
    /// (4:4:4), as swscale resizes chroma before it converts to RGB.
    func chroma(fullSize: Bool = false) -> RenderRecipe {
        let half = { (value: Int) in (value + 1) / 2 }
        return RenderRecipe(sourceWidth: half(sourceWidth), sourceHeight: half(sourceHeight), channels: 1,
                            crop: Rect(x: crop.x / 2, y: crop.y / 2, width: half(crop.width), height: half(crop.height)),
                            quarterTurns: quarterTurns, width: fullSize ? width : half(width), height: fullSize ? height : half(height))
    }

    /// Why the recipe cannot be rendered from `input` to `output`, or `nil`.
    func problem(input: GPURenderer.Input, output: RenderOutput) -> String? {
        if sourceWidth < 1 || sourceHeight < 1 { return "the picture is empty" }
        switch input {
        case .packed where ![1, 3, 4].contains(channels):
            return "pictures must have 1, 3 or 4 channels, not \(channels)"
        case .yuv420 where channels != 1 || output.matrix == nil:
            return "YUV 4:2:0 pictures render plane by plane, one channel each, to YUV 4:2:0"
        default: break
        }
        if crop.x < 0 || crop.y < 0 || crop.width < 1 || crop.height < 1
            || crop.x + crop.width > sourceWidth || crop.y + crop.height > sourceHeight {
            return "the crop \(crop.width)×\(crop.height) at (\(crop.x), \(crop.y)) is not inside the \(sourceWidth)×\(sourceHeight) picture"
        }
        if width < 1 || height < 1 || width > turnedWidth || height > turnedHeight {
            return "the output \(width)×\(height) is not a reduction of \(turnedWidth)×\(turnedHeight)"
        }
        return nil
    }
}

/// How rendered pictures come back.
public enum RenderOutput: Sendable, Equatable {
    /// 8-bit RGBA, `width × 4` bytes a row.
    case rgba
    /// Planar YUV 4:2:0 for an encoder, written by a matrix and range; see ``YUVLayout``.
    case yuv420(YUVMatrix)

    /// The matrix of YUV output; `nil` for RGBA.
    var matrix: YUVMatrix? {
        if case .yuv420(let matrix) = self { return matrix }
        return nil
    }
}

/// Where the planes of one YUV 4:2:0 picture lie in the bytes ``GPURenderer`` hands back.
public struct YUVLayout: Sendable, Equatable {
    /// The picture's size.
    public let width: Int, height: Int
    /// Bytes from one luma row to the next (a multiple of 4).
    public let lumaStride: Int
    /// Bytes from one chroma row to the next, in each chroma plane (a multiple of 4).
    public let chromaStride: Int

    /// The layout of a `width` × `height` picture.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        lumaStride = (width + 3) & ~3
        chromaStride = ((width + 1) / 2 + 3) & ~3
    }

    /// Rows in each chroma plane.
    public var chromaHeight: Int { (height + 1) / 2 }
    /// Where each plane starts.
    public var lumaOffset: Int { 0 }
    public var blueOffset: Int { lumaStride * height }
    public var redOffset: Int { blueOffset + chromaStride * chromaHeight }
    /// The bytes of one picture.
    public var pictureBytes: Int { redOffset + chromaStride * chromaHeight }
}
