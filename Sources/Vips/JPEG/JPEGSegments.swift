import Foundation

/// A JPEG file split at its markers up to the first scan: the header segments (APPn, COM, DQT,
/// SOF, DHT, …) one by one, and everything from the start-of-scan marker on as it is.
///
/// Bytes between segments that are not a marker (what libjpeg reports as "extraneous bytes
/// before marker") are counted and left out; joining the segments again gives the same file
/// without them, its compressed pixel data untouched.
struct JPEGSegments {
    /// One marker segment before the first scan.
    struct Segment: Equatable {
        /// The marker's second byte: 0xE0…0xEF for APP0…APP15, 0xFE for COM, 0xDB for DQT, ….
        var marker: UInt8
        /// The bytes after the two length bytes.
        var payload: Data

        /// Whether this is APPn whose payload starts with `signature`.
        func isApplication(_ number: UInt8, signature: [UInt8]) -> Bool {
            marker == 0xE0 + number && payload.starts(with: signature)
        }
    }

    var segments: [Segment]
    /// From the start-of-scan marker to the end of the file.
    var scan: Data
    /// Bytes found between segments that belonged to none.
    var extraneousBytes: Int

    /// Splits `data`.
    /// - Throws: ``VipsError/Kind/corrupt`` naming `path` when `data` is not a JPEG or ends
    ///   before its first scan.
    init(_ data: Data, path: String?) throws {
        let base = data.startIndex, end = data.endIndex
        func damaged(_ reason: String) -> VipsError { VipsError(.corrupt, path: path, reason: reason) }
        guard data.count >= 4, JPEGSignature.matches(data) else {
            throw damaged("it does not start like a JPEG")
        }
        segments = []
        extraneousBytes = 0
        var position = base + 2
        while true {
            // libjpeg skips anything up to the next 0xFF; fill bytes (more 0xFF) are allowed.
            while position < end && data[position] != 0xFF {
                extraneousBytes += 1
                position += 1
            }
            while position + 1 < end && data[position + 1] == 0xFF { position += 1 }
            guard position + 1 < end else { throw damaged("it ends before its first scan") }
            let marker = data[position + 1]
            if marker == 0xDA {
                scan = data[position...]
                return
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // markers without a length
                position += 2
                continue
            }
            guard position + 3 < end else { throw damaged("it ends inside a marker segment") }
            let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
            guard length >= 2, position + 2 + length <= end else {
                throw damaged("a marker segment runs past the end of the file")
            }
            segments.append(Segment(marker: marker, payload: data[(position + 4)..<(position + 2 + length)]))
            position += 2 + length
        }
    }

    /// The file again: SOI, the segments, the scan.
    var joined: Data {
        var data = Data(JPEGSignature.startOfImage)
        for segment in segments {
            let length = segment.payload.count + 2
            data.append(contentsOf: [0xFF, segment.marker, UInt8(length >> 8), UInt8(length & 0xFF)])
            data.append(segment.payload)
        }
        data.append(scan)
        return data
    }
}
