import CFFmpegShim
import Foundation
import MediaInputLimits

/// Picks a still that stands for a video, for thumbnails and previews.
public enum FrameGrabber {
    /// The fractions of the duration at which candidates are decoded: past a black or title
    /// opening, before the credits.
    static let candidatePoints = [0.1, 0.25, 0.4, 0.55, 0.7]

    /// Decodes one frame at each of five points between 10 % and 70 % of the duration and
    /// returns the one with the most luma variance (the least flat: not black, not a fade), upright
    /// by the display rotation and scaled to fit inside `maxDimension` × `maxDimension` (never
    /// enlarged), as packed RGB24; an HDR (PQ or HLG) video's frames are tone-mapped to SDR
    /// BT.709 as in exports (``ToneMapper``).
    /// - Parameters:
    ///   - path: the video.
    ///   - limits: what the video may be.
    ///   - maxDimension: the largest width and height of the result, at least 2.
    ///   - shouldStop: asked between frames and by blocking reads.
    /// - Returns: the pixels, row after row with no padding (`width * 3` bytes a row), and the size.
    /// - Throws: ``FFmpegError``: `noVideoStream`, `corruptMedia` when no candidate decodes,
    ///   `invalidRequest` for a `maxDimension` below 2, and the errors of opening the file.
    public static func representativeFrame(
        _ path: String, limits: MediaLimits = MediaLimits(), maxDimension: Int,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) -> (data: Data, width: Int, height: Int) {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: path, limits: limits, stop: stop)
        let index = try input.videoStream()
        input.keepOnly([index])
        let decoder = try StreamDecoder(input: input, streamIndex: index, limits: limits, threads: 1)
        let stream = decoder.stream
        let parameters = stream.pointee.codecpar.pointee
        let edit = VideoEdit(maxWidth: maxDimension, maxHeight: maxDimension)
        let geometry = try EditGeometry(storedWidth: Int(parameters.width), storedHeight: Int(parameters.height),
                                        displayRotation: Int(shim_stream_rotation(stream)), edit: edit,
                                        evenSize: false, path: path)
        let timeBase = stream.pointee.time_base
        // HDR pictures are tone-mapped to SDR first, as in exports.
        let colour = PictureColour(parameters)
        let toneMapper = colour.isHDR ? ToneMapper(colour: colour, timeBase: timeBase, path: path) : nil
        let pipeline = FramePipeline(geometry: geometry, edit: edit, colour: toneMapper == nil ? colour : .bt709,
                                     output: AV_PIX_FMT_RGB24, path: path)

        var duration = input.duration
        if duration <= 0, stream.pointee.duration > 0 { duration = timeBase.seconds(stream.pointee.duration) }
        let frame = Frame()
        var best: (data: Data, variance: Double)?
        for point in candidatePoints {
            let target = timeBase.timestamp(input.startTime + point * duration)
            try decoder.seek(to: target)
            var decoded = false
            while try decoder.next(into: frame) {
                decoded = true
                if let time = frame.time, time < target { continue }
                break
            }
            guard decoded, frame.width > 0 else { continue }
            let picture = try pipeline.process(try toneMapper?.map(frame) ?? frame)
            let (pixels, stride) = picture.plane(0)
            let variance = shim_luma_variance_rgb24(pixels, stride, picture.width, picture.height)
            if best == nil || variance > best!.variance {
                best = (packed(pixels!, stride: Int(stride), width: geometry.width, height: geometry.height), variance)
            }
        }
        guard let best else {
            throw FFmpegError(.corruptMedia, operation: "decode", path: path, code: shim_AVERROR_INVALIDDATA(),
                              reason: "no frame decodes at any candidate point")
        }
        return (best.data, geometry.width, geometry.height)
    }

    /// Copies RGB24 rows out of a padded picture.
    private static func packed(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) -> Data {
        var data = Data(count: width * height * 3)
        data.withUnsafeMutableBytes { buffer in
            for row in 0..<height {
                memcpy(buffer.baseAddress! + row * width * 3, pixels + row * stride, width * 3)
            }
        }
        return data
    }
}
