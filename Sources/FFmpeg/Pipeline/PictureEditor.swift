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

/// Edits pictures with a ``PictureRenderer``: converts each to RGB24 as it arrives, and renders
/// a full batch (or the rest, at the end) at once into output frames it owns and reuses.
///
/// The conversion to RGB follows the CPU path: when the colour changes, chroma is interpolated
/// as ``FramePipeline`` does before adjusting; otherwise each 2 × 2 block gets its own chroma
/// sample, so that a crop or turn gives the decoded chroma back as the CPU path, which never
/// leaves YUV then, does. The conversion reads the pictures' own matrix and range, which the plan
/// gives the renderer for the way back.
final class BatchedPictureEditor: PictureEditor {
    private let renderer: any PictureRenderer
    private let plan: PictureRenderPlan
    private let colour: PictureColour
    private let path: String
    private var converter: Scaler?
    private var pending: [(rgb: Frame, time: Int64, duration: Int64)] = []
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
        if converter == nil || !converter!.accepts(frame) {
            converter = try Scaler(from: (frame.width, frame.height, frame.pixelFormat),
                                   to: (frame.width, frame.height, AV_PIX_FMT_RGB24), colour: colour,
                                   replicatingChroma: !plan.changesColour, path: path)
        }
        if count == pending.count {
            pending.append((try Frame(width: frame.width, height: frame.height, format: AV_PIX_FMT_RGB24, path: path), 0, 0))
        }
        try converter!.scale(frame, into: pending[count].rgb)
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
                Self.copyRows(from: pending[index].rgb, plane: 0, into: destination, rowBytes: plan.sourceWidth * 3,
                              rows: plan.sourceHeight)
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
