import Foundation

/// A PNG file rewritten without the metadata the safe policy removes, its image data untouched
/// (no decoding, no re-encoding): the lossless way to honour ``MetadataPolicy/safe`` for a PNG
/// that is copied rather than re-encoded.
public enum PNGSafeCopy {
    /// Text keys kept: the PNG standard's words for artist, copyright, description and the
    /// time of creation.
    static let keptTextKeys: Set<String> = ["Author", "Copyright", "Description", "Creation Time"]

    /// `data` with its chunks as they were, except: the EXIF chunk (`eXIf`) rebuilt with the tags
    /// the safe policy keeps (see ``MetadataPolicy/safe``, plus the orientation), text chunks
    /// (`tEXt`, `zTXt`, `iTXt`, XMP among them) kept only for the keys Author, Copyright,
    /// Description and Creation Time, and time stamps (`tIME`) dropped.
    ///
    /// - Parameters:
    ///   - data: A PNG file.
    ///   - path: The file's name, for errors.
    /// - Throws: ``VipsError/Kind/corrupt`` when `data` is not a PNG or a chunk runs past its end.
    public static func rewritten(_ data: Data, path: String?) throws -> Data {
        let signature = ImageSignatures.png
        guard ImageSignatures.isPNG(data) else { throw VipsError(.corrupt, path: path, reason: "it does not start like a PNG") }
        var output = Data(signature)
        var position = data.startIndex + signature.count
        while position < data.endIndex {
            guard position + 12 <= data.endIndex else { throw VipsError(.corrupt, path: path, reason: "a PNG chunk is cut short") }
            let length = data[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = position + 12 + length
            guard length >= 0, end <= data.endIndex else {
                throw VipsError(.corrupt, path: path, reason: "a PNG chunk runs past the end of the file")
            }
            let type = String(decoding: data[(position + 4)..<(position + 8)], as: UTF8.self)
            let body = data[(position + 8)..<(position + 8 + length)]
            switch type {
            case "eXIf":
                if let filtered = try EXIFFilter.filtered([UInt8](body), path: path) { output += chunk("eXIf", filtered) }
            case "tEXt", "zTXt", "iTXt":
                let key = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
                if keptTextKeys.contains(key) { output += data[position..<end] }
            case "tIME":
                break
            default:
                output += data[position..<end]
            }
            position = end
            if type == "IEND" { break }
        }
        return output
    }

    /// A chunk of `type` holding `body`, with its length and CRC.
    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        return Data(bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (ISO 3309) as PNG computes it over a chunk's type and body.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
