import FFmpeg
import Foundation
import Vips

/// What an asset is, judged by its content rather than its name.
enum AssetKind: Equatable, Sendable {
    case image
    case video(MediaInfo)
}

/// Tells images from videos by trying libvips' loaders (images) and then FFmpeg's demuxers.
enum AssetProbe {
    /// Classifies the file at `path`.
    /// - Throws: FFmpeg's error when FFmpeg recognised a container but could not use it (a
    ///   truncated MP4), else libvips' error, which is the more telling one for still images.
    static func classify(_ path: String, limits: MediaLimits, imageLimits: ImageLimits) throws -> AssetKind {
        let imageError: any Error
        do {
            _ = try VipsImage.load(path, limits: imageLimits)
            return .image
        } catch {
            imageError = error
        }
        let recognised: [FFmpegError.Kind] = [.corruptMedia, .unsupportedCodec, .noVideoStream, .tooManyPixels]
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path, limits: limits, scanKeyframes: true)
        } catch where recognised.contains(error.kind) {
            throw error
        } catch {
            throw imageError
        }
        guard info.video != nil else { throw imageError }
        return .video(info)
    }
}
