import Foundation
import Vips

/// What `compress` writes for a photo it could not make smaller: the original, under the
/// metadata policy.
enum PhotoCopy: Equatable {
    /// The file as it is: the policy keeps everything, or it carries nothing the policy removes.
    case original
    /// A JPEG, PNG or WebP rewritten without the removed metadata, its compressed pixels untouched.
    case rewritten(Data)
    /// A file of another format (HEIC, TIFF, …) that carries removed metadata: the re-encoded output (which
    /// follows the policy) is kept instead, larger though it is.
    case reencoded

    /// The copy for the photo at `path`.
    /// - Throws: ``VipsError`` when the file cannot be read.
    static func choose(for path: String, policy: MetadataPolicy, limits: ImageLimits) throws -> PhotoCopy {
        guard policy == .safe else { return .original }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if JPEGSignature.matches(data) { return .rewritten(try JPEGSafeCopy.rewritten(data, path: path)) }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .rewritten(try PNGSafeCopy.rewritten(data, path: path)) }
        if data.count >= 12, data[data.startIndex + 8..<data.startIndex + 12].elementsEqual("WEBP".utf8) {
            return .rewritten(try WebPSafeCopy.rewritten(data, path: path))
        }
        return try VipsImage.load(path, limits: limits).carriesPrivateMetadata ? .reencoded : .original
    }
}
