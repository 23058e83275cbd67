/// Renders a video's pictures somewhere other than this CPU path (a GPU), a batch at a time:
/// YUV 4:2:0 pictures of the stored size in, YUV 4:2:0 pictures of the output size out.
///
/// ``SegmentEncoder`` decodes each picture (converting other formats to 8-bit YUV 4:2:0),
/// collects up to ``batchSize`` of them, has the renderer apply the plan to all at once, then
/// encodes the results in order.
public protocol PictureRenderer: AnyObject {
    /// The most pictures one ``render(count:fill:read:)`` takes.
    var batchSize: Int { get }

    /// Renders `count` pictures.
    /// - Parameters:
    ///   - fill: writes picture `i` at the pointer given: its luma, blue- and red-difference
    ///     planes back to back, each without padding (chroma half the size, rounded up).
    ///   - read: receives picture `i`'s planes, valid only during the call.
    func render(count: Int, fill: (Int, UnsafeMutableRawPointer) throws -> Void,
                read: (Int, PicturePlanes) throws -> Void) throws
}

/// The planes of one rendered YUV 4:2:0 picture.
public struct PicturePlanes {
    /// Luma, then blue-difference and red-difference chroma (half size, rounded up).
    public var luma: UnsafeRawPointer, blue: UnsafeRawPointer, red: UnsafeRawPointer
    /// Bytes from one row to the next: luma, then both chroma planes.
    public var lumaStride: Int, chromaStride: Int

    /// The planes at these addresses.
    public init(luma: UnsafeRawPointer, blue: UnsafeRawPointer, red: UnsafeRawPointer, lumaStride: Int, chromaStride: Int) {
        self.luma = luma
        self.blue = blue
        self.red = red
        self.lumaStride = lumaStride
        self.chromaStride = chromaStride
    }
}

/// What to do to every picture of a segment, in stored (decoded) coordinates: crop, turn
/// clockwise, fit the output size, colour — ``VideoEdit`` worked out for one video — and how to
/// write the result as YUV: the video's own matrix and range.
public struct PictureRenderPlan: Sendable, Equatable {
    /// The decoded pictures' size.
    public var sourceWidth: Int, sourceHeight: Int
    /// The stored pixels kept.
    public var cropX: Int, cropY: Int, cropWidth: Int, cropHeight: Int
    /// Clockwise quarter turns from the stored picture to the output (display rotation included).
    public var quarterTurns: Int
    /// The output size, even.
    public var width: Int, height: Int
    /// The edit's colour steps.
    public var exposure: Double, contrast: Double, saturation: Double
    /// The luma weights of red and blue in the YUV matrix of the output (green's is the rest):
    /// 0.2126 and 0.0722 for BT.709, 0.299 and 0.114 for BT.601.
    public var lumaRed: Double, lumaBlue: Double
    /// Whether the output's YUV values use the full range (else limited: luma 16…235).
    public var fullRange: Bool

    /// Whether the colour steps change anything.
    public var changesColour: Bool { exposure != 0 || contrast != 1 || saturation != 1 }
}

/// Makes the renderer for a segment's plan, or `nil` to render it on the CPU.
public typealias PictureRendererFactory = (PictureRenderPlan) throws -> (any PictureRenderer)?
