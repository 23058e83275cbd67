import CVips
import CVipsShim

extension VipsImage {
    /// The pixels of a rectangle, exactly.
    ///
    /// - Parameters:
    ///   - x: Left edge, from 0.
    ///   - y: Top edge, from 0.
    ///   - width: At least 1.
    ///   - height: At least 1.
    /// - Throws: ``VipsError/Kind/invalidArgument`` when the rectangle is empty or reaches
    ///   outside the image.
    public func crop(x: Int, y: Int, width: Int, height: Int) throws -> VipsImage {
        let inside = x >= 0 && y >= 0 && width >= 1 && height >= 1
            && x <= self.width - width && y <= self.height - height
        guard inside else {
            throw VipsError(.invalidArgument, path: sourcePath,
                            reason: "the crop \(width)×\(height) at (\(x), \(y)) does not fit inside the "
                                + "\(self.width)×\(self.height) image; choose a rectangle inside it")
        }
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        return try derive { shim_crop($0, $1, Int32(x), Int32(y), Int32(width), Int32(height)) }
    }

    /// The image turned clockwise by `quarterTurns` × 90°, exactly (no resampling).
    ///
    /// Any integer works: 4 and 0 return the image itself, −1 is the same as 3.
    public func rotate(quarterTurns: Int) throws -> VipsImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        return try derive { shim_rotate($0, $1, Int32(turns)) }
    }

    /// The image scaled down to fit inside `maxWidth` × `maxHeight`, keeping its proportions;
    /// never enlarged (an image that already fits is returned as is).
    ///
    /// Resampling uses the Lanczos3 kernel (a windowed sinc over 3 lobes: sharp, little
    /// aliasing; libvips first shrinks by whole factors with a box filter when the reduction is
    /// large, then Lanczos3 does the rest). Alpha is premultiplied during resampling so
    /// transparent pixels do not bleed colour into the edges. Each output side is the input
    /// side × scale rounded to the nearest pixel, at least 1.
    ///
    /// - Throws: ``VipsError/Kind/invalidArgument`` when a bound is below 1.
    public func resize(maxWidth: Int, maxHeight: Int) throws -> VipsImage {
        guard maxWidth >= 1, maxHeight >= 1 else {
            throw VipsError(.invalidArgument, path: sourcePath,
                            reason: "a resize to fit \(maxWidth)×\(maxHeight) needs both sides of at least 1")
        }
        let (targetWidth, targetHeight) = Self.fittedSize(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        if targetWidth == width && targetHeight == height { return self }
        let format = vips_image_get_format(pointer)
        let input = hasAlpha ? try premultiplied() : self
        // A hair over the exact ratio so libvips' rounding of the output size cannot fall one
        // pixel short; any extra pixel is cropped below.
        let hscale = (Double(targetWidth) + 1e-6) / Double(width)
        let vscale = (Double(targetHeight) + 1e-6) / Double(height)
        var resized = try input.derive { shim_resize_lanczos3($0, $1, hscale, vscale) }
        if hasAlpha {
            resized = try resized.unpremultiplied().rint().cast(to: format)
        }
        if resized.width != targetWidth || resized.height != targetHeight {
            resized = try resized.crop(x: 0, y: 0, width: min(targetWidth, resized.width),
                                       height: min(targetHeight, resized.height))
        }
        return resized
    }

    /// The size ``resize(maxWidth:maxHeight:)`` gives a `width` × `height` image: scaled by
    /// `min(maxWidth / width, maxHeight / height)` when that is below 1, each side rounded to
    /// the nearest pixel, at least 1 and at most its bound; unchanged otherwise.
    public static func fittedSize(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        if scale >= 1 { return (width, height) }
        return (min(maxWidth, max(1, Int((Double(width) * scale).rounded()))),
                min(maxHeight, max(1, Int((Double(height) * scale).rounded()))))
    }
}
