import Foundation

/// Rebuilds an EXIF block (a TIFF structure) with only the tags the safe metadata policy keeps,
/// copying each kept tag's type, count and value bytes as they were, in the block's byte order.
///
/// Kept: ImageDescription, Orientation (a copied file's pixels are not turned, so viewers still
/// need it), Artist, Copyright and the tags the EXIF standard requires of a JPEG (resolution,
/// YCbCr positioning) from the first directory; DateTimeOriginal, its time offset and
/// sub-seconds from the EXIF directory. Everything else — GPS, serial numbers, maker notes,
/// camera and lens, the embedded thumbnail — is left out.
enum EXIFFilter {
    static let keptInFirstDirectory: Set<UInt16> = [0x010E, 0x0112, 0x011A, 0x011B, 0x0128, 0x013B, 0x0213, 0x8298]
    static let keptInEXIFDirectory: Set<UInt16> = [0x9003, 0x9011, 0x9291]
    static let exifPointer: UInt16 = 0x8769

    /// One directory entry: tag, type, count and value bytes.
    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// The filtered TIFF structure, or `nil` when no tag is kept.
    /// - Throws: ``VipsError/Kind/corrupt`` naming `path` when the structure is damaged.
    static func filtered(_ tiff: [UInt8], path: String?) throws -> [UInt8]? {
        let reader = try Reader(tiff, path: path)
        let first = try reader.directory(at: Int(reader.uint32(at: 4)))
        let kept = first.filter { keptInFirstDirectory.contains($0.tag) }
        var exif: [Entry] = []
        if let pointer = first.first(where: { $0.tag == exifPointer }) {
            exif = try reader.directory(at: Int(reader.uint32(pointer.value, 0))).filter { keptInEXIFDirectory.contains($0.tag) }
        }
        if kept.isEmpty && exif.isEmpty { return nil }
        return Writer(bigEndian: reader.bigEndian).tiff(first: kept, exif: exif)
    }

    /// Reads a TIFF structure's header and directories.
    private struct Reader {
        let bytes: [UInt8]
        let bigEndian: Bool
        let path: String?

        init(_ bytes: [UInt8], path: String?) throws {
            self.bytes = bytes
            self.path = path
            guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else {
                throw VipsError(.corrupt, path: path, reason: "its EXIF block has no TIFF header")
            }
            bigEndian = bytes[0] == 0x4D
        }

        func uint16(at offset: Int) throws -> UInt16 {
            guard offset >= 0, offset + 2 <= bytes.count else { throw damaged() }
            return bigEndian ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                : UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
        }

        func uint32(at offset: Int) throws -> UInt32 {
            guard offset >= 0, offset + 4 <= bytes.count else { throw damaged() }
            return uint32(Array(bytes[offset..<(offset + 4)]), 0)
        }

        func uint32(_ value: [UInt8], _ offset: Int) -> UInt32 {
            let b = value[offset..<(offset + 4)].map(UInt32.init)
            return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        }

        func directory(at offset: Int) throws -> [Entry] {
            let count = Int(try uint16(at: offset))
            return try (0..<count).map { index in
                let start = offset + 2 + 12 * index
                let type = try uint16(at: start + 2), count = try uint32(at: start + 4)
                let size = Int(count) * EXIFFilter.size(of: type)
                guard start + 12 <= bytes.count, count < 1 << 24 else { throw damaged() }
                if size <= 4 { return Entry(tag: try uint16(at: start), type: type, count: count,
                                            value: Array(bytes[(start + 8)..<(start + 12)])) }
                let at = Int(try uint32(at: start + 8))
                guard at + size <= bytes.count else { throw damaged() }
                return Entry(tag: try uint16(at: start), type: type, count: count, value: Array(bytes[at..<(at + size)]))
            }
        }

        private func damaged() -> VipsError {
            VipsError(.corrupt, path: path, reason: "its EXIF block points outside itself")
        }
    }

    /// Writes a TIFF structure with a first directory and, when given, an EXIF directory.
    private struct Writer {
        let bigEndian: Bool

        func tiff(first: [Entry], exif: [Entry]) -> [UInt8] {
            var entries = first
            let firstSize = 2 + 12 * (first.count + (exif.isEmpty ? 0 : 1)) + 4
            let exifAt = 8 + firstSize + outside(first).count
            if !exif.isEmpty { entries.append(Entry(tag: exifPointer, type: 4, count: 1, value: uint32(UInt32(exifAt)))) }
            var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 0x2A] : [0x49, 0x49, 0x2A, 0]
            out += uint32(8)
            out += directory(entries, at: 8)
            if !exif.isEmpty { out += directory(exif, at: exifAt) }
            return out
        }

        /// The directory at `offset`, followed by its values that do not fit in an entry.
        private func directory(_ entries: [Entry], at offset: Int) -> [UInt8] {
            let sorted = entries.sorted { $0.tag < $1.tag }
            var data = offset + 2 + 12 * sorted.count + 4
            var head = uint16(UInt16(sorted.count)), tail: [UInt8] = []
            for entry in sorted {
                head += uint16(entry.tag) + uint16(entry.type) + uint32(entry.count)
                if entry.value.count <= 4 {
                    head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    head += uint32(UInt32(data))
                    let padded = entry.value + (entry.value.count % 2 == 1 ? [0] : [])
                    tail += padded
                    data += padded.count
                }
            }
            return head + uint32(0) + tail
        }

        private func outside(_ entries: [Entry]) -> [UInt8] {
            entries.filter { $0.value.count > 4 }.flatMap { $0.value + ($0.value.count % 2 == 1 ? [0] : []) }
        }

        private func uint16(_ value: UInt16) -> [UInt8] {
            let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }

        private func uint32(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
    }

    /// Bytes per value of a TIFF type; 1 for types this filter does not know.
    static func size(of type: UInt16) -> Int {
        switch type {
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: 1
        }
    }
}
