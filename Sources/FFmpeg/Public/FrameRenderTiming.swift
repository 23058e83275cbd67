import CFFmpegShim
import Foundation

/// Times the render step of video encoding alone — decoded YUV 4:2:0 pictures in, edited YUV
/// 4:2:0 pictures out, by the code ``SegmentEncoder`` uses — on synthetic pictures, so that the
/// CPU path and a ``PictureRenderer`` can be compared (`mediajob probe --benchmark`).
public enum FrameRenderTiming {
    /// Renders `frames` pictures of `width` × `height` with `edit`, on `renderer` when the
    /// factory gives one, else on the CPU.
    /// - Returns: the seconds it took, conversions, uploads and downloads included.
    public static func seconds(width: Int, height: Int, frames: Int, edit: VideoEdit,
                               renderer: PictureRendererFactory? = nil) throws(FFmpegError) -> Double {
        let path = "synthetic \(width)×\(height)"
        let geometry = try EditGeometry(storedWidth: width, storedHeight: height, displayRotation: 0, edit: edit, path: path)
        let editor = try SegmentEncoder.pictureEditor(geometry: geometry, edit: edit, colour: .bt709, stored: (width, height),
                                                      renderer: renderer, path: path)
        let frame = try Frame(width: Int32(width), height: Int32(height), format: AV_PIX_FMT_YUV420P, path: path)
        for plane in 0..<3 {
            let (data, stride) = frame.plane(plane)
            let rows = plane == 0 ? height : (height + 1) / 2
            for row in 0..<rows {
                for column in 0..<Int(stride) { data![row * Int(stride) + column] = UInt8(truncatingIfNeeded: row * 3 + column * (plane + 1)) }
            }
        }
        var rendered = 0
        let start = Date()
        for index in 0..<frames {
            try editor.edit(frame, time: Int64(index), duration: 1) { _ in rendered += 1 }
        }
        try editor.flush { _ in rendered += 1 }
        let seconds = Date().timeIntervalSince(start)
        guard rendered == frames else {
            throw FFmpegError(.encodeFailed, operation: "render", path: path, reason: "\(rendered) of \(frames) pictures came back")
        }
        return seconds
    }
}
