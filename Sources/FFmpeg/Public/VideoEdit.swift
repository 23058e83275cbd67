/// What to do to each picture of a video, in this order: crop, turn, resize, colour.
///
/// Coordinates are those of the picture as shown: a stream's display rotation (see
/// ``VideoInfo/rotation``) is applied before the edit, and the output carries no rotation.
/// Colour is defined on 8-bit RGB values exactly as for still images: exposure `e` multiplies
/// R, G and B by 2^e; contrast `c` maps v → (v − 128)·c + 128; saturation `s` maps
/// v → Y + (v − Y)·s with Rec.601 luma Y = 0.299 R + 0.587 G + 0.114 B. The steps compose in
/// floating point without clamping in between; the result is rounded half to even and clamped
/// to 0…255 once, as libvips' path does.
public struct VideoEdit: Sendable, Codable, Equatable {
    /// A rectangle of the shown picture, in pixels from its top-left corner.
    public struct Crop: Sendable, Codable, Equatable {
        /// The left edge.
        public var x: Int
        /// The top edge.
        public var y: Int
        /// The width, at least 1.
        public var width: Int
        /// The height, at least 1.
        public var height: Int

        /// Creates a rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The part of the picture to keep; `nil` keeps it whole.
    public var crop: Crop?
    /// Clockwise quarter turns after the crop (negative turns counterclockwise).
    public var quarterTurns: Int
    /// The widest the output may be; the picture is fitted inside, never enlarged.
    public var maxWidth: Int?
    /// The tallest the output may be; the picture is fitted inside, never enlarged.
    public var maxHeight: Int?
    /// Exposure change in stops; 0 leaves it.
    public var exposure: Double
    /// Contrast factor around mid-grey 128; 1 leaves it.
    public var contrast: Double
    /// Saturation factor around Rec.601 luma; 1 leaves it, 0 makes grey.
    public var saturation: Double

    /// Creates an edit; the defaults change nothing.
    public init(
        crop: Crop? = nil, quarterTurns: Int = 0, maxWidth: Int? = nil, maxHeight: Int? = nil,
        exposure: Double = 0, contrast: Double = 1, saturation: Double = 1
    ) {
        self.crop = crop
        self.quarterTurns = quarterTurns
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.exposure = exposure
        self.contrast = contrast
        self.saturation = saturation
    }

    /// The edit that changes nothing: pictures go from the decoder to the encoder as they are.
    public static let identity = VideoEdit()

    /// Whether the colour steps change anything (they need a round trip through RGB).
    public var changesColour: Bool { exposure != 0 || contrast != 1 || saturation != 1 }
}
