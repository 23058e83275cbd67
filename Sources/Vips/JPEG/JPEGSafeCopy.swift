import Foundation

/// A JPEG file rewritten without the metadata the safe policy removes, its compressed pixels
/// untouched (no decoding, no re-encoding): the lossless way to honour
/// ``MetadataPolicy/safe`` for a file that is copied rather than re-encoded.
public enum JPEGSafeCopy {
    /// `data` with only JFIF (APP0), the filtered EXIF block (see ``MetadataPolicy/safe``, plus the
    /// orientation, since the pixels are not turned), the ICC profile (APP2) and Adobe's colour
    /// transform flag (APP14) before the frame; XMP, IPTC, comments, multi-picture indexes and
    /// vendor segments go, and so does anything after the end-of-image marker (the secondary
    /// pictures a multi-picture index points to). Bytes between segments that belong to none
    /// go too.
    ///
    /// - Parameters:
    ///   - data: A JPEG file.
    ///   - path: The file's name, for errors.
    /// - Throws: ``VipsError/Kind/corrupt`` when `data` is not a JPEG or its structure is damaged.
    public static func rewritten(_ data: Data, path: String?) throws -> Data {
        var file = try JPEGSegments(data, path: path)
        var kept: [JPEGSegments.Segment] = []
        for segment in file.segments {
            if segment.isApplication(1, signature: Array("Exif\0\0".utf8)) {
                let tiff = [UInt8](segment.payload.dropFirst(6))  // a copy: offsets count from 0
                if let filtered = try EXIFFilter.filtered(tiff, path: path) {
                    kept.append(.init(marker: segment.marker, payload: Data("Exif\0\0".utf8) + filtered))
                }
            } else if keeps(segment) {
                kept.append(segment)
            }
        }
        file.segments = kept
        file.scan = endingAtEndOfImage(file.scan)
        return file.joined
    }

    /// Whether a segment other than EXIF stays.
    private static func keeps(_ segment: JPEGSegments.Segment) -> Bool {
        switch segment.marker {
        case 0xE0: segment.isApplication(0, signature: Array("JFIF\0".utf8))
        case 0xE2: segment.isApplication(2, signature: Array("ICC_PROFILE\0".utf8))
        case 0xEE: segment.isApplication(14, signature: Array("Adobe".utf8))
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false
        default: true  // tables, frame and other decoding segments
        }
    }

    /// The scans up to and including the first end-of-image marker: inside compressed data every
    /// 0xFF is followed by 0x00 or a restart number, so the first 0xFF 0xD9 is the end.
    private static func endingAtEndOfImage(_ scan: Data) -> Data {
        var index = scan.startIndex
        while index + 1 < scan.endIndex {
            if scan[index] == 0xFF && scan[index + 1] == 0xD9 { return scan[...(index + 1)] }
            index += 1
        }
        return scan
    }
}
