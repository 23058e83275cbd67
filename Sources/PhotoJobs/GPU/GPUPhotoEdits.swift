import Foundation
import GPURender
import Vips
import Vulkan

/// An asset's photo edits (crop, rotate, resize, colour) rendered on the GPU, with the same
/// definition and in the same order as ``MediaSettings/apply(_:to:)`` on the CPU.
package enum GPUPhotoEdits {
    /// The edited image, from pixels rendered by `renderer`.
    ///
    /// The image is converted to 8-bit sRGB before upload (grey images come back grey, alpha is
    /// kept). A crop outside the image fails as on the CPU path. A picture too large for one of the device's buffers renders in strips of rows.
    /// - Throws: ``VulkanError`` (`outOfMemory` when not even a strip fits: callers render it on
    ///   the CPU instead), or ``VipsError`` from decoding.
    package static func apply(_ edits: ProjectManifest.Edits, to image: VipsImage, on renderer: GPURenderer) throws -> VipsImage {
        let grey = image.bands <= 2
        let source = try image.toSRGB8()
        let recipe = try Self.recipe(edits, for: source)
        let pixels = try source.pixels()
        // Back to the bands the CPU path gives: grey or colour, with alpha when the image had it.
        let bands = (grey ? 1 : 3) + (image.hasAlpha ? 1 : 0)
        var rgba = Data(count: recipe.width * recipe.height * 4)
        try pixels.data.withUnsafeBytes { source in
            try rgba.withUnsafeMutableBytes { try renderer.render(recipe, pixels: source, into: $0) }
        }
        var rendered = Data(count: recipe.width * recipe.height * bands)
        rgba.withUnsafeBytes { result in
            rendered.withUnsafeMutableBytes { Self.repack(result.bindMemory(to: UInt8.self).baseAddress!, into: $0, bands: bands) }
        }
        return try VipsImage.fromPixels(rendered, width: recipe.width, height: recipe.height, bands: bands)
    }

    /// The recipe of `edits` for `source`, an 8-bit sRGB picture.
    /// - Throws: ``VipsError`` when the crop is outside the picture, as on the CPU path.
    package static func recipe(_ edits: ProjectManifest.Edits, for source: VipsImage) throws -> RenderRecipe {
        let crop = try edits.crop.map { crop in
            // The CPU path's check and message.
            _ = try source.crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
            return RenderRecipe.Rect(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        }
        var recipe = RenderRecipe(sourceWidth: source.width, sourceHeight: source.height, channels: source.bands,
                                  crop: crop, quarterTurns: edits.rotate / 90, exposure: edits.exposure, contrast: edits.contrast,
                                  saturation: edits.saturation)
        (recipe.width, recipe.height) = VipsImage.fittedSize(width: recipe.width, height: recipe.height,
                                                             maxWidth: edits.maxWidth ?? .max, maxHeight: edits.maxHeight ?? .max)
        return recipe
    }

    /// Copies RGBA pixels into `bands` bands: R (grey), R+A, RGB or RGBA.
    private static func repack(_ rgba: UnsafePointer<UInt8>, into output: UnsafeMutableRawBufferPointer, bands: Int) {
        let out = output.bindMemory(to: UInt8.self)
        let pixels = out.count / bands
        let channels: [Int] = switch bands {
        case 1: [0]
        case 2: [0, 3]
        case 3: [0, 1, 2]
        default: [0, 1, 2, 3]
        }
        for pixel in 0..<pixels {
            for (band, channel) in channels.enumerated() { out[pixel * bands + band] = rgba[pixel * 4 + channel] }
        }
    }
}
