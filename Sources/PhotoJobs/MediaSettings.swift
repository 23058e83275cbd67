import TaskContract
import Vips

/// Turns the manifest's words into the libraries' settings: libvips' here, FFmpeg's in
/// MediaJobs (`MediaSettings+Video`).
package enum MediaSettings {
    /// The image format named in a manifest, if this libvips can write it.
    package static func imageFormat(_ name: String) throws -> ImageFormat {
        guard let format = ImageFormat(rawValue: name), format.isAvailable else {
            throw UnsupportedSetting(message: "this libvips cannot write \(name) images; choose jpeg, webp or png")
        }
        return format
    }

    /// Applies an asset's edits to an image, in the documented order: crop, rotate, resize, colour.
    package static func apply(_ edits: ProjectManifest.Edits, to image: VipsImage) throws -> VipsImage {
        var image = image
        if let crop = edits.crop { image = try image.crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height) }
        if edits.rotate % 360 != 0 { image = try image.rotate(quarterTurns: edits.rotate / 90) }
        if edits.maxWidth != nil || edits.maxHeight != nil {
            image = try image.resize(maxWidth: edits.maxWidth ?? .max, maxHeight: edits.maxHeight ?? .max)
        }
        return try image.adjusted(exposure: edits.exposure, contrast: edits.contrast, saturation: edits.saturation)
    }
}

/// A setting this machine's libraries cannot honour.
package struct UnsupportedSetting: CategorizedError {
    package var message: String

    package init(message: String) {
        self.message = message
    }

    package var category: FailureCategory { .invalidInput }
}
