import CFFmpegShim

/// A decoded picture edited and ready for the encoder, with its time and duration.
typealias EditedPicture = (picture: Frame, time: Int64, duration: Int64)

/// Turns decoded pictures into edited ones, in order: at once (``FramePipeline``) or a batch at
/// a time (``BatchedPictureEditor``).
protocol PictureEditor {
    /// Takes `frame`; hands the pictures ready so far to `emit`.
    func edit(_ frame: Frame, time: Int64, duration: Int64,
              emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError)
    /// Hands any pictures still held to `emit`.
    func flush(emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError)
}

extension FramePipeline: PictureEditor {
    func edit(_ frame: Frame, time: Int64, duration: Int64,
              emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError) {
        try emit((try process(frame), time, duration))
    }

    func flush(emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError) {}
}

/// Edits pictures with a ``PictureRenderer``: converts each to what the renderer takes as it
/// arrives, and renders a full batch (or the rest, at the end) at once into output frames it
/// owns and reuses.
///
/// The renderer gets the decoded YUV 4:2:0 planes (other formats converted to them, by the
/// pictures' own matrix and range), which it crops, turns and resizes plane by plane as the CPU
/// path does; the plan gives it the matrix and range for a colour change through RGB.
final class BatchedPictureEditor: PictureEditor {
    private let renderer: any PictureRenderer
    private let plan: PictureRenderPlan
    private let colour: PictureColour
    private let path: String
    private var converter: Scaler?
    private var pending: [(picture: Frame, time: Int64, duration: Int64)] = []
    private var count = 0
    private var outputs: [Frame] = []

    init(renderer: any PictureRenderer, plan: PictureRenderPlan, colour: PictureColour, path: String) {
        self.renderer = renderer
        self.plan = plan
        self.colour = colour
        self.path = path
    }

    func edit(_ frame: Frame, time: Int64, duration: Int64,
              emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError) {
        let format = AV_PIX_FMT_YUV420P
        if count == pending.count {
            pending.append((try Frame(width: frame.width, height: frame.height, format: format, path: path), 0, 0))
        }
        if frame.pixelFormat == format {
            try pending[count].picture.makeWritable(path: path)
            for (plane, rows, rowBytes) in planes(of: frame) {
                let (from, fromStride) = frame.plane(plane), (to, toStride) = pending[count].picture.plane(plane)
                for row in 0..<rows {
                    (to! + row * Int(toStride)).update(from: from! + row * Int(fromStride), count: rowBytes)
                }
            }
        } else {
            if converter == nil || !converter!.accepts(frame) {
                converter = try Scaler(from: (frame.width, frame.height, frame.pixelFormat),
                                       to: (frame.width, frame.height, format), colour: colour, path: path)
            }
            try converter!.scale(frame, into: pending[count].picture)
        }
        pending[count].time = time
        pending[count].duration = duration
        count += 1
        if count == max(1, renderer.batchSize) { try flush(emit: emit) }
    }

    func flush(emit: (EditedPicture) throws(FFmpegError) -> Void) throws(FFmpegError) {
        guard count > 0 else { return }
        while outputs.count < count {
            outputs.append(try Frame(width: Int32(plan.width), height: Int32(plan.height), format: AV_PIX_FMT_YUV420P, path: path))
        }
        for output in outputs.prefix(count) { try output.makeWritable(path: path) }
        do {
            try renderer.render(count: count, fill: { index, destination in
                var offset = 0
                for (plane, rows, rowBytes) in planes(of: pending[index].picture) {
                    Self.copyRows(from: pending[index].picture, plane: plane, into: destination + offset, rowBytes: rowBytes, rows: rows)
                    offset += rows * rowBytes
                }
            }, read: { index, planes in
                Self.copyRows(planes.luma, stride: planes.lumaStride, into: outputs[index], plane: 0, rowBytes: plan.width,
                              rows: plan.height)
                Self.copyRows(planes.blue, stride: planes.chromaStride, into: outputs[index], plane: 1,
                              rowBytes: (plan.width + 1) / 2, rows: (plan.height + 1) / 2)
                Self.copyRows(planes.red, stride: planes.chromaStride, into: outputs[index], plane: 2,
                              rowBytes: (plan.width + 1) / 2, rows: (plan.height + 1) / 2)
            })
        } catch {
            throw error as? FFmpegError ?? FFmpegError(.encodeFailed, operation: "render on the GPU", path: path,
                                                       reason: "\(error)")
        }
        let ready = count
        count = 0
        for index in 0..<ready {
            try emit((outputs[index], pending[index].time, pending[index].duration))
        }
    }

    /// The planes of a YUV 4:2:0 picture, with their rows and bytes a row.
    private func planes(of picture: Frame) -> [(plane: Int, rows: Int, rowBytes: Int)] {
        let (width, height) = (Int(picture.width), Int(picture.height))
        return [(0, height, width), (1, (height + 1) / 2, (width + 1) / 2), (2, (height + 1) / 2, (width + 1) / 2)]
    }

    /// Copies a frame's plane into packed rows.
    private static func copyRows(from frame: Frame, plane: Int, into destination: UnsafeMutableRawPointer, rowBytes: Int, rows: Int) {
        let (data, stride) = frame.plane(plane)
        for row in 0..<rows {
            (destination + row * rowBytes).copyMemory(from: data! + row * Int(stride), byteCount: rowBytes)
        }
    }

    /// Copies rows `stride` bytes apart into a frame's plane.
    private static func copyRows(_ source: UnsafeRawPointer, stride: Int, into frame: Frame, plane: Int, rowBytes: Int, rows: Int) {
        let (data, frameStride) = frame.plane(plane)
        for row in 0..<rows {
            UnsafeMutableRawPointer(data! + row * Int(frameStride)).copyMemory(from: source + row * stride, byteCount: rowBytes)
        }
    }
}
