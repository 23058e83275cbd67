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
    /// - Throws: the image loader's error when neither library accepts the file, since that is
    ///   the more telling one for still images, unless FFmpeg's names a video problem.
    static func classify(_ path: String, limits: MediaLimits, imageLimits: ImageLimits) throws -> AssetKind {
        let imageError: any Error
        do {
            _ = try VipsImage.load(path, limits: imageLimits)
            return .image
        } catch {
            imageError = error
        }
        do {
            let info = try MediaProbe.probe(path, limits: limits, scanKeyframes: true)
            guard info.video != nil else { throw imageError }
            return .video(info)
        } catch {
            throw imageError
        }
    }
}
