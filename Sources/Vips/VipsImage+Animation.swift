import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// The number of frames the source file holds: more than 1 for an animated GIF or WebP (or a
    /// multi-page file), 1 for a still.
    public var frameCount: Int { Int(shim_page_count(pointer)) }

    /// Whether the source is an animated GIF or WebP with more than one frame.
    public var isAnimated: Bool {
        let loader = loaderName ?? ""
        return frameCount > 1 && (loader.hasPrefix("gifload") || loader.hasPrefix("webpload"))
    }

    /// Whether the file at `path` starts as a GIF (`GIF8`) or a WebP (`RIFF`, four bytes, `WEBP`)
    /// does: the only formats ``isAnimated`` can be true of. Reads 12 bytes and no header, so a
    /// caller can leave every other file unopened; `false` for a file that cannot be read.
    public static func couldBeAnimated(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let head = [UInt8]((try? file.read(upToCount: 12)) ?? Data())
        return ImageSignatures.isGIF(head) || ImageSignatures.isWebP(head)
    }

    /// Every frame of an animated GIF or WebP, stacked top to bottom, with each frame's delay and
    /// the loop count; saved as WebP it is an animation again.
    ///
    /// The same checks as ``load(_:limits:access:)`` run first, and `limits` bounds all frames
    /// together, so that a small picture of many frames cannot take unbounded memory.
    /// - Throws: ``VipsError`` as ``load(_:limits:access:)`` does.
    public static func loadAnimation(_ path: String, limits: ImageLimits = ImageLimits()) throws -> VipsImage {
        try Vips.ensureInitialized()
        try InputFile.checkReadable(path)
        let source = try ImageSource(path: path, loader: InputFile.loader(for: path))
        let first = try source.open(sequential: false)
        try limits.check(width: first.width, height: first.height * max(1, first.frameCount), path: path)
        return try source.open(sequential: false, allFrames: true)
    }

    /// The animation with `transform` applied to each frame; every frame must come out the same
    /// size. A still (one frame) is transformed as it is.
    public func mappingFrames(_ transform: (VipsImage) throws -> VipsImage) throws -> VipsImage {
        let frameHeight = Int(vips_image_get_page_height(pointer))
        let frames = height / max(1, frameHeight)
        guard frames > 1 else { return try transform(self) }
        let edited = try (0..<frames).map { try transform(crop(x: 0, y: $0 * frameHeight, width: width, height: frameHeight)) }
        guard edited.allSatisfy({ $0.width == edited[0].width && $0.height == edited[0].height }) else {
            throw VipsError(.invalidArgument, path: sourcePath, reason: "the frames of the animation came out of different sizes")
        }
        var pointers: [ImagePointer?] = edited.map(\.pointer)
        var output: ImagePointer?
        let status = withExtendedLifetime(edited) {
            [0.0].withUnsafeBufferPointer { background in
                shim_arrayjoin(&pointers, Int32(pointers.count), &output, 1, 0, background.baseAddress, 1)
            }
        }
        try VipsError.check(status) { VipsError(.other, path: sourcePath, libraryMessage: $0) }
        let stacked = VipsImage(owning: output!, sourcePath: sourcePath)
        guard let view = shim_view_with_page_height(stacked.pointer, Int32(edited[0].height)) else {
            throw VipsError(.other, path: sourcePath, libraryMessage: VipsError.takeLibraryMessage())
        }
        return VipsImage(owning: view, sourcePath: sourcePath)
    }
}
