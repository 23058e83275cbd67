import GPURender
import Vips
import Vulkan

/// Applies a photo's edits on the GPU when one is given and the picture fits its memory budget,
/// else on the CPU.
package enum PhotoRendering {
    /// The edited image and the path that rendered it; it carries `image`'s metadata on both paths.
    /// `gpu` is asked for the renderer only when the edits change the picture, so that a photo
    /// left as it is never waits for GPU probing.
    package static func apply(_ edits: ProjectManifest.Edits, to image: VipsImage, gpu: () -> GPURenderer?) throws -> (VipsImage, RenderPath) {
        if changesPixels(edits, image), let gpu = gpu() {
            do {
                return (try GPUPhotoEdits.apply(edits, to: image, on: gpu).withMetadata(of: image), .gpu)
            } catch let error as VulkanError where error.kind == .outOfMemory {
                // Too large for the device's budget: the CPU path streams it instead.
            }
        }
        return (try MediaSettings.apply(edits, to: image), .cpu)
    }

    /// Whether the edits do anything to `image` (an image they leave alone is not uploaded).
    private static func changesPixels(_ edits: ProjectManifest.Edits, _ image: VipsImage) -> Bool {
        let fitted = VipsImage.fittedSize(width: image.width, height: image.height,
                                          maxWidth: edits.maxWidth ?? .max, maxHeight: edits.maxHeight ?? .max)
        return edits.crop != nil || edits.rotate % 360 != 0 || fitted != (image.width, image.height)
            || edits.exposure != 0 || edits.contrast != 1 || edits.saturation != 1
    }
}
