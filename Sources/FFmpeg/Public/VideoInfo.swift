/// A video stream as ``MediaProbe`` found it.
public struct VideoInfo: Sendable, Codable, Equatable {
    /// The stored (decoded) width in pixels, before the display rotation.
    public var width: Int
    /// The stored (decoded) height in pixels, before the display rotation.
    public var height: Int
    /// Frames per second (the average rate, else the container's base rate).
    public var frameRate: Double
    /// The number of frames: counted when keyframes were scanned, else the container's figure.
    public var frameCount: Int?
    /// FFmpeg's codec name, for example `h264`.
    public var codecName: String
    /// Clockwise degrees (0, 90, 180, 270) to turn the stored picture to show it upright, from the
    /// stream's display matrix.
    public var rotation: Int

    /// Creates a description.
    public init(width: Int, height: Int, frameRate: Double, frameCount: Int?, codecName: String, rotation: Int) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.codecName = codecName
        self.rotation = rotation
    }

    /// The width as shown, after the display rotation; crops in ``VideoEdit`` use this frame.
    public var displayWidth: Int { rotation % 180 == 0 ? width : height }
    /// The height as shown, after the display rotation.
    public var displayHeight: Int { rotation % 180 == 0 ? height : width }
}
