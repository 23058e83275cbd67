import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// Writes the image to a file, computing its pixels.
    ///
    /// The file carries the image's metadata as `metadata` allows (see ``MetadataPolicy``; use
    /// ``withMetadata(of:)`` for pixels made outside libvips), never an orientation (images are
    /// saved upright), and an ICC profile: the image's own, or sRGB for colour images without one,
    /// so that viewers cannot misread the colours. Equal images give equal bytes. JPEG, WebP and AVIF use `quality`; PNG uses zlib level 6. An image with alpha is flattened
    /// onto white for JPEG. The file is written under a temporary name in the same folder and
    /// renamed into place when complete: on any failure or stop, nothing is left at `path` (an
    /// existing file there is kept) and the temporary file is removed.
    ///
    /// - Parameters:
    ///   - path: The destination; replaced if it exists.
    ///   - format: The output format, whatever the extension of `path`.
    ///   - quality: 1…100 for lossy formats (clamped).
    ///   - metadata: What of the image's metadata the file keeps.
    ///   - shouldStop: Asked before and during the computation, from libvips' threads; when it
    ///     returns true the computation is killed.
    /// - Throws: ``VipsError`` of kind ``VipsError/Kind/stopped`` after a stop,
    ///   ``VipsError/Kind/writeFailed(noSpace:)`` when writing fails, ``VipsError/Kind/corrupt``
    ///   when the source file fails to decode, ``VipsError/Kind/formatUnavailable(_:)``.
    public func save(
        to path: String, format: ImageFormat, quality: Int = 80, metadata: MetadataPolicy = .safe,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws {
        let image = try readyToEncode(format, metadata: metadata)
        let temporary = Self.temporaryPath(for: path)
        do {
            let watch = try EvaluationWatch(image, shouldStop: shouldStop)
            let status = shim_save_file(watch.pointer, format.shimFormat, temporary, Self.clamped(quality))
            let stopRequested = watch.finish()
            try VipsError.check(status) {
                VipsError.evaluation(libraryMessage: $0, stopRequested: stopRequested, source: sourcePath,
                                     destination: path)
            }
            // A stop that came too late to interrupt still means the caller gave up on the result.
            if stopRequested { throw VipsError(.stopped, path: path) }
            guard rename(temporary, path) == 0 else {
                let code = errno
                throw VipsError(.writeFailed(noSpace: code == ENOSPC || code == EDQUOT), path: path,
                                reason: String(cString: strerror(code)))
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The image encoded in memory, as ``save(to:format:quality:metadata:shouldStop:)`` would
    /// write it.
    /// - Throws: ``VipsError`` as for ``save(to:format:quality:metadata:shouldStop:)``.
    public func encoded(format: ImageFormat, quality: Int = 80, metadata: MetadataPolicy = .safe) throws -> Data {
        let image = try readyToEncode(format, metadata: metadata)
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        try VipsError.check(shim_save_buffer(image.pointer, format.shimFormat, &buffer, &length, Self.clamped(quality))) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: sourcePath, destination: nil)
        }
        guard let buffer else { return Data() }
        return Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in g_free(pointer) })
    }

    /// The pixels as 8-bit interleaved samples, row by row with no padding; samples of other
    /// formats are cast (clipped) to 0…255. The colour space is kept (see ``toSRGB8()``).
    /// - Throws: ``VipsError/Kind/corrupt`` when the source file fails to decode.
    public func pixels() throws -> (data: Data, width: Int, height: Int, bands: Int) {
        let image = try cast(to: VIPS_FORMAT_UCHAR)
        var length = 0
        guard let buffer = shim_write_to_memory(image.pointer, &length) else {
            throw VipsError.evaluation(libraryMessage: VipsError.takeLibraryMessage(), stopRequested: false,
                                       source: sourcePath, destination: nil)
        }
        let data = Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in g_free(pointer) })
        return (data, image.width, image.height, image.bands)
    }

    /// The image as the saver for `format` takes it: flattened for JPEG, metadata prepared.
    private func readyToEncode(_ format: ImageFormat, metadata: MetadataPolicy) throws -> VipsImage {
        try format.requireAvailable()
        return try (format == .jpeg ? flattened(background: [255]) : self).preparedForSaving(metadata)
    }

    /// A hidden name next to `path` for writing before the rename.
    private static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let hidden = ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(hidden).path
    }

    private static func clamped(_ quality: Int) -> Int32 {
        Int32(min(100, max(1, quality)))
    }
}
