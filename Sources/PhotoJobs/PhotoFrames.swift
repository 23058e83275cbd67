import GPURender
import Vips

/// Animated GIF and WebP photos: kept animated where the output format can hold an animation
/// (WebP), else their first frame, and the package says so.
package enum PhotoFrames {
    /// `image`, loaded from `path` with its colour handled by `profile`, edited for an output in
    /// `format`: every frame of an animation when `format` is WebP (edited frame by frame on the
    /// CPU), else the picture as ``PhotoRendering/apply(_:to:gpu:)`` renders it (`gpu` is asked for
    /// a renderer only when the edits change the picture).
    package static func render(_ edits: ProjectManifest.Edits, image: VipsImage, path: String, format: ImageFormat,
                       profile: ColourProfilePolicy, limits: ImageLimits, gpu: () -> GPURenderer?) throws -> (VipsImage, RenderPath) {
        guard format == .webp, image.isAnimated else { return try PhotoRendering.apply(edits, to: image, gpu: gpu) }
        let frames = try VipsImage.loadAnimation(path, limits: limits).colourManaged(profile)
        return (try frames.mappingFrames { try MediaSettings.apply(edits, to: $0) }, .cpu)
    }

    /// What an output in `format` loses of the photo at `path`, in words, or `nil` when nothing:
    /// the frames after the first of an animation that `format` cannot hold.
    package static func lostFrames(of path: String, format: ImageFormat, limits: ImageLimits) throws -> String? {
        guard format != .webp, let frames = animationFrames(of: path, limits: limits) else { return nil }
        return "the first of its \(frames) animation frames only (\(format.rawValue) holds one picture; "
            + "webp keeps the animation)"
    }

    /// The number of frames of the animated GIF or WebP at `path`; `nil` for anything else.
    package static func animationFrames(of path: String, limits: ImageLimits) -> Int? {
        guard let image = try? VipsImage.load(path, limits: limits), image.isAnimated else { return nil }
        return image.frameCount
    }
}
