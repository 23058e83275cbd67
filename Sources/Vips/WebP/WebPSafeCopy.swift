import Foundation

/// A WebP file rewritten without the metadata the safe policy removes, its image data untouched
/// (no decoding, no re-encoding): the lossless way to honour ``MetadataPolicy/safe`` for a WebP
/// that is copied rather than re-encoded.
public enum WebPSafeCopy {
    /// `data` with its chunks as they were, except: the `EXIF` chunk rebuilt with the tags the
    /// safe policy keeps (see ``MetadataPolicy/safe``, plus the orientation), the `XMP ` chunk
    /// dropped, and the extended header's flags and the RIFF size made to match.
    ///
    /// - Parameters:
    ///   - data: A WebP file.
    ///   - path: The file's name, for errors.
    /// - Throws: ``VipsError/Kind/corrupt`` when `data` is not a WebP or a chunk runs past its end.
    public static func rewritten(_ data: Data, path: String?) throws -> Data {
        let bytes = [UInt8](data)
        guard ImageSignatures.isWebP(bytes) else {
            throw VipsError(.corrupt, path: path, reason: "it does not start like a WebP")
        }
        var chunks: [(type: String, body: [UInt8])] = []
        var position = 12
        while position + 8 <= bytes.count {
            let type = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
            let size = bytes[(position + 4)..<(position + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard position + 8 + size <= bytes.count else {
                throw VipsError(.corrupt, path: path, reason: "a WebP chunk runs past the end of the file")
            }
            chunks.append((type, Array(bytes[(position + 8)..<(position + 8 + size)])))
            position += 8 + size + size % 2
        }
        var kept: [(type: String, body: [UInt8])] = []
        for chunk in chunks {
            switch chunk.type {
            case "EXIF":
                let prefix = Array("Exif\0\0".utf8)
                let tiff = chunk.body.starts(with: prefix) ? Array(chunk.body.dropFirst(prefix.count)) : chunk.body
                if let filtered = try EXIFFilter.filtered(tiff, path: path) { kept.append(("EXIF", filtered)) }
            case "XMP ":
                break
            default:
                kept.append(chunk)
            }
        }
        if let header = kept.firstIndex(where: { $0.type == "VP8X" }), !kept[header].body.isEmpty {
            let hasEXIF = kept.contains { $0.type == "EXIF" }
            kept[header].body[0] = kept[header].body[0] & ~0x04 & (hasEXIF ? 0xFF : ~0x08)  // XMP, EXIF flags
        }
        var body = Array("WEBP".utf8)
        for chunk in kept {
            body += Array(chunk.type.utf8) + littleEndian(UInt32(chunk.body.count)) + chunk.body
            if chunk.body.count % 2 == 1 { body.append(0) }
        }
        return Data(Array("RIFF".utf8) + littleEndian(UInt32(body.count)) + body)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
