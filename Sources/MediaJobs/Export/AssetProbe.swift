import FFmpeg
import Foundation
import MediaInputLimits
import Vips

/// What an asset is, judged by its content rather than its name.
enum AssetKind: Equatable, Sendable {
    /// A still image of `width` × `height` stored pixels (before any orientation).
    case image(width: Int, height: Int)
    case video(MediaInfo)
}

/// Tells images from videos by trying libvips' loaders (images) and then FFmpeg's demuxers.
enum AssetProbe {
    /// Classifies the file at `path`; a video's keyframes are listed unless `scanKeyframes` is false.
    /// - Throws: libvips' error at once for a file that cannot be read at all (missing, a folder,
    ///   a FIFO or device); FFmpeg's error when FFmpeg recognised a container but could not use it
    ///   (a truncated MP4); ``UnrecognisedFileError`` when neither knows the content; else
    ///   libvips' error, which is the more telling one for still images.
    static func classify(_ path: String, limits: MediaLimits, imageLimits: ImageLimits,
                         scanKeyframes: Bool = true) throws -> AssetKind {
        let imageError: any Error
        do {
            let image = try VipsImage.load(path, limits: imageLimits)
            return .image(width: image.width, height: image.height)
        } catch let error as VipsError where error.kind == .unreadable {
            throw error // missing, or not a regular file: FFmpeg would fail the same way, or block on a FIFO
        } catch {
            imageError = error
        }
        let recognised: [FFmpegError.Kind] = [.corruptMedia, .unsupportedCodec, .noVideoStream, .tooManyPixels]
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path, limits: limits, scanKeyframes: scanKeyframes)
        } catch where recognised.contains(error.kind) {
            throw error
        } catch {
            throw Self.unrecognised(imageError, path: path)
        }
        guard info.video != nil else { throw Self.unrecognised(imageError, path: path) }
        return .video(info)
    }

    /// libvips' error, unless it only says that no image loader knows the file: then, FFmpeg
    /// having found no video either, the file is neither.
    private static func unrecognised(_ imageError: any Error, path: String) -> any Error {
        guard let error = imageError as? VipsError, error.kind == .unknownFormat else { return imageError }
        return UnrecognisedFileError(path: path)
    }
}
