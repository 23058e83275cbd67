import CFFmpegShim

/// Applies a ``VideoEdit`` to decoded pictures: crop, turn, resize (Lanczos), colour, in that
/// order, ending in `output` format (8- or 10-bit YUV 4:2:0 for encoding, RGB24 for stills).
///
/// Each step runs only when the edit asks for it. An identity edit on YUV 4:2:0 pictures of the
/// output size passes the decoded frame through untouched; otherwise one conversion brings the
/// picture to the output size. Colour needs RGB24: the picture is converted to RGB24, adjusted
/// with the 8-bit definition of ``VideoEdit`` and converted back. Every conversion uses the
/// pictures' own matrix and range (``PictureColour``); YUV output keeps both.
final class FramePipeline {
    let geometry: EditGeometry
    private let edit: VideoEdit
    private let colour: PictureColour
    private let output: AVPixelFormat
    private let path: String
    private var scaler: Scaler?
    private var scaled: Frame?
    private var turned: Frame?
    private var converter: Scaler?
    private var converted: Frame?
    private let cropped = Frame()

    /// Prepares the steps for `geometry` and `edit` on pictures whose YUV values mean `colour`.
    init(geometry: EditGeometry, edit: VideoEdit, colour: PictureColour, output: AVPixelFormat = AV_PIX_FMT_YUV420P,
         path: String) {
        self.geometry = geometry
        self.edit = edit
        self.colour = colour
        self.output = output
        self.path = path
    }

    /// The format the resize step produces: RGB24 when colour follows, else the output format.
    private var workingFormat: AVPixelFormat { edit.changesColour ? AV_PIX_FMT_RGB24 : output }

    /// Runs the edit on `frame`.
    /// - Returns: the edited picture: `frame` itself when nothing is to be done, else a frame this
    ///   pipeline owns and reuses for the next call.
    func process(_ frame: Frame) throws(FFmpegError) -> Frame {
        let g = geometry
        if g.cropsNothing, g.quarterTurns == 0, !edit.changesColour, frame.pixelFormat == output,
           Int(frame.width) == g.width, Int(frame.height) == g.height {
            return frame
        }
        var source = frame
        if !g.cropsNothing {
            cropped.unref()
            try check(av_frame_ref(cropped.pointer, frame.pointer), "av_frame_ref", path: path, kind: .encodeFailed)
            let p = cropped.pointer
            p.pointee.crop_left = Int(g.crop.x)
            p.pointee.crop_top = Int(g.crop.y)
            p.pointee.crop_right = Int(frame.width) - g.crop.x - g.crop.width
            p.pointee.crop_bottom = Int(frame.height) - g.crop.y - g.crop.height
            try check(av_frame_apply_cropping(p, Int32(AV_FRAME_CROP_UNALIGNED)), "av_frame_apply_cropping",
                      path: path, kind: .invalidRequest)
            source = cropped
        }
        var picture = try resize(source)
        if g.quarterTurns != 0 { picture = try turn(picture) }
        if edit.changesColour {
            let (pixels, stride) = picture.plane(0)
            shim_adjust_rgb24(pixels, stride, picture.width, picture.height,
                              edit.exposure, edit.contrast, edit.saturation)
            if output != AV_PIX_FMT_RGB24 { picture = try convert(picture) }
        }
        return picture
    }

    /// Scales `source` to the size before turning, in the working format. A picture that already
    /// has that size and format is used as it is when the turn, which copies it, follows.
    private func resize(_ source: Frame) throws(FFmpegError) -> Frame {
        let target = (width: Int32(geometry.scaledWidth), height: Int32(geometry.scaledHeight), format: workingFormat)
        if geometry.quarterTurns != 0, source.width == target.width, source.height == target.height,
           source.pixelFormat == target.format {
            return source
        }
        if scaler == nil || !scaler!.accepts(source) {
            scaler = try Scaler(from: (source.width, source.height, source.pixelFormat), to: target, colour: colour,
                                path: path)
            scaled = try Frame(width: target.width, height: target.height, format: target.format, path: path)
        }
        try scaler!.scale(source, into: scaled!)
        return scaled!
    }

    /// Turns `picture` clockwise by the geometry's quarter turns, plane by plane.
    private func turn(_ picture: Frame) throws(FFmpegError) -> Frame {
        let format = picture.pixelFormat
        if turned == nil {
            turned = try Frame(width: Int32(geometry.width), height: Int32(geometry.height), format: format, path: path)
        }
        let destination = turned!
        try destination.makeWritable(path: path)
        let planes: [(width: Int32, height: Int32, bytes: Int32)]
        if format == AV_PIX_FMT_RGB24 {
            planes = [(picture.width, picture.height, 3)]
        } else {
            let sample: Int32 = format == AV_PIX_FMT_YUV420P10LE ? 2 : 1
            let chroma = ((picture.width + 1) / 2, (picture.height + 1) / 2, sample)
            planes = [(picture.width, picture.height, sample), chroma, chroma]
        }
        for (index, plane) in planes.enumerated() {
            let (from, fromStride) = picture.plane(index)
            let (to, toStride) = destination.plane(index)
            shim_rotate_plane(from, fromStride, plane.width, plane.height, plane.bytes, to, toStride,
                              Int32(geometry.quarterTurns))
        }
        return destination
    }

    /// Converts the adjusted RGB24 picture to the output format at the same size.
    private func convert(_ picture: Frame) throws(FFmpegError) -> Frame {
        if converter == nil || !converter!.accepts(picture) {
            let target = (width: picture.width, height: picture.height, format: output)
            converter = try Scaler(from: (picture.width, picture.height, picture.pixelFormat), to: target, colour: colour,
                                   path: path)
            converted = try Frame(width: target.width, height: target.height, format: target.format, path: path)
        }
        try converter!.scale(picture, into: converted!)
        return converted!
    }
}
