import FFmpeg
import PhotoJobs
import Vips

/// The thumbnail job's ``VideoInputs`` in a program with FFmpeg: ``AssetProbe`` tells photos,
/// videos and bad files apart; ``FrameGrabber`` picks a video's frame.
struct AssetInputs: VideoInputs {
    func classify(_ path: String, settings: BatchSettings, scanKeyframes: Bool) throws -> InputKind {
        try MediaLibraries.initialize()
        switch try AssetProbe.classify(path, limits: settings.mediaLimits, imageLimits: settings.imageLimits,
                                       scanKeyframes: scanKeyframes) {
        case .image: return .photo
        case .video: return .video
        }
    }

    func representativeFrame(of path: String, settings: BatchSettings, maxDimension: Int) throws -> VipsImage {
        try MediaLibraries.initialize()
        let frame = try FrameGrabber.representativeFrame(path, limits: settings.mediaLimits, maxDimension: maxDimension)
        return try VipsImage.fromPixels(frame.data, width: frame.width, height: frame.height, bands: 3)
    }
}
