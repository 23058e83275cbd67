import CFFmpegShim
import Foundation

/// Edits raw YUV 4:2:0 pictures held in memory on the CPU path, by the code ``SegmentEncoder``
/// uses, with BT.709 limited-range colour: how references are made for checking another renderer
/// (`Scripts/gpu-check`) without encoding.
public enum RawPictureEditing {
    /// The edited pictures and the plan a ``PictureRenderer`` would be given for them.
    public struct Result: Sendable {
        /// The pictures, each its luma, blue- and red-difference planes back to back, no padding.
        public var planes: Data
        /// Their size.
        public var width: Int, height: Int
        /// What a renderer is asked to do to the same pictures.
        public var plan: PictureRenderPlan
    }

    /// Edits `count` pictures of `width` × `height`, laid out as ``Result/planes`` says.
    /// - Throws: ``FFmpegError`` when the edit does not fit the pictures.
    public static func edit(_ pictures: Data, width: Int, height: Int, count: Int, edit: VideoEdit) throws(FFmpegError) -> Result {
        let path = "raw \(width)×\(height)"
        let geometry = try EditGeometry(storedWidth: width, storedHeight: height, displayRotation: 0, edit: edit, path: path)
        let editor = try SegmentEncoder.pictureEditor(geometry: geometry, edit: edit, colour: .bt709, stored: (width, height),
                                                      renderer: nil, path: path)
        let frame = try Frame(width: Int32(width), height: Int32(height), format: AV_PIX_FMT_YUV420P, path: path)
        var edited = Data()
        for index in 0..<count {
            try frame.makeWritable(path: path)
            var offset = index * planeBytes(width, height)
            for (plane, rows, rowBytes) in planes(width, height) {
                let (data, stride) = frame.plane(plane)
                pictures.withUnsafeBytes { bytes in
                    for row in 0..<rows {
                        (data! + row * Int(stride)).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset,
                                                           count: rowBytes)
                        offset += rowBytes
                    }
                }
            }
            try editor.edit(frame, time: Int64(index), duration: 1) { picture in
                for (plane, rows, rowBytes) in planes(geometry.width, geometry.height) {
                    let (data, stride) = picture.picture.plane(plane)
                    for row in 0..<rows { edited.append(data! + row * Int(stride), count: rowBytes) }
                }
            }
        }
        return Result(planes: edited, width: geometry.width, height: geometry.height,
                      plan: SegmentEncoder.renderPlan(geometry: geometry, edit: edit, colour: .bt709, stored: (width, height)))
    }

    /// The bytes of one picture.
    public static func planeBytes(_ width: Int, _ height: Int) -> Int {
        planes(width, height).map { $0.rows * $0.rowBytes }.reduce(0, +)
    }

    private static func planes(_ width: Int, _ height: Int) -> [(plane: Int, rows: Int, rowBytes: Int)] {
        [(0, height, width), (1, (height + 1) / 2, (width + 1) / 2), (2, (height + 1) / 2, (width + 1) / 2)]
    }
}
