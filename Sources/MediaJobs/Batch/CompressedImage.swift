import Foundation
import GPURender
import JobEngine
import PhotoJobs
import Vips

/// Re-encodes one photo for `mediajob compress`: in the asked format, else the same format where
/// it is jpeg, webp or png (jpeg otherwise), resized to fit, at the asked quality or the best quality under a target size.
struct CompressedImage {
    let spec: CompressJob.Spec
    let item: InputItem

    /// The workspace name of the photo's output.
    static func name(of item: InputItem, format: ImageFormat) -> String { "\(item.name).\(format.fileExtension)" }

    /// The workspace name under which the photo's output was committed.
    static func committedName(of item: InputItem, in workspace: Workspace) throws -> String {
        let names = ImageFormat.allCases.map { name(of: item, format: $0) }
        guard let name = names.first(where: workspace.contains) else {
            throw PackageError.mismatch("the compressed copy of \(item.path) is missing from the workspace")
        }
        return name
    }

    /// Commits the compressed photo, resized on the GPU that `gpu` gives (asked only when the photo
    /// is resized), and returns the path that rendered it.
    func commit(in context: JobContext, gpu: () -> GPURenderer?) throws -> RenderPath {
        let loaded = try VipsImage.load(item.path, limits: spec.settings.imageLimits).colourManaged(spec.profile)
        var edits = ProjectManifest.Edits()
        edits.maxWidth = spec.maxWidth
        edits.maxHeight = spec.maxHeight
        let format = spec.format ?? Self.format(for: loaded)
        let (image, path) = try PhotoFrames.render(edits, image: loaded, path: item.path, format: format, profile: spec.profile,
                                                   limits: spec.settings.imageLimits, gpu: gpu)
        let data = try encode(image, format: format)
        try context.workspace.commit(Self.name(of: item, format: format), data: data)
        return path
    }

    /// The output format for a loaded photo: its own where it is png or webp, webp for an
    /// animated GIF (so that it stays animated), jpeg otherwise.
    static func format(for image: VipsImage) -> ImageFormat {
        if image.isAnimated { return .webp }
        return switch image.loaderName ?? "" {
        case let loader where loader.hasPrefix("png"): .png
        case let loader where loader.hasPrefix("webp"): .webp
        default: .jpeg
        }
    }

    /// The encoded photo: at the asked quality, or the highest quality (searched by halving)
    /// whose size meets the target; the lowest quality when none does.
    private func encode(_ image: VipsImage, format: ImageFormat) throws -> Data {
        guard let target = spec.targetSize, format != .png else {
            return try image.encoded(format: format, quality: spec.quality, metadata: spec.metadata)
        }
        var low = 5, high = 95
        var best = try image.encoded(format: format, quality: low, metadata: spec.metadata)
        while low <= high {
            let middle = (low + high) / 2
            let data = try image.encoded(format: format, quality: middle, metadata: spec.metadata)
            if Int64(data.count) <= target {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }
}
