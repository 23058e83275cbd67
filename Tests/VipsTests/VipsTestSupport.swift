import Foundation
import Testing
import Vips

/// Starts libvips once for the whole test process; every suite calls ``start()`` in its `init`.
enum VipsTestSupport {
    private static let failure: (any Error)? = {
        do {
            try Vips.initialize()
            return nil
        } catch {
            return error
        }
    }()

    static func start() throws {
        if let failure { throw failure }
    }
}

/// Small synthetic images and files for the tests.
enum TestImages {
    /// An RGB(A) image where every pixel differs: red follows x, green follows y, blue mixes both.
    static func gradient(width: Int, height: Int, bands: Int = 3, alpha: UInt8 = 255) throws -> VipsImage {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let pixel: [UInt8] = [
                    UInt8((x * 255) / max(1, width - 1)),
                    UInt8((y * 255) / max(1, height - 1)),
                    UInt8(((x + y) * 37) % 256),
                    alpha,
                ]
                bytes.append(contentsOf: pixel.prefix(bands))
            }
        }
        return try VipsImage.fromPixels(Data(bytes), width: width, height: height, bands: bands)
    }

    /// An image of the given pixels, row by row.
    static func pixels(_ rows: [[[UInt8]]]) throws -> VipsImage {
        let bands = rows[0][0].count
        let bytes = rows.flatMap { $0.flatMap { $0 } }
        return try VipsImage.fromPixels(Data(bytes), width: rows[0].count, height: rows.count, bands: bands)
    }

    /// Busy, photo-like content (so JPEG has real work to do): a gradient with a checker pattern.
    static func photo(width: Int, height: Int) throws -> VipsImage {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let checker: UInt8 = ((x / 8 + y / 8) % 2 == 0) ? 40 : 0
                bytes.append(UInt8((x * 200) / width) &+ checker)
                bytes.append(UInt8((y * 200) / height) &+ checker)
                bytes.append(UInt8(((x * y) / 7) % 200))
            }
        }
        return try VipsImage.fromPixels(Data(bytes), width: width, height: height, bands: 3)
    }

    /// Writes `image` as a JPEG with an EXIF APP1 segment carrying `orientation`.
    static func writeJPEG(_ image: VipsImage, orientation: UInt8, to path: String) throws {
        var jpeg = [UInt8](try image.encoded(format: .jpeg, quality: 90))
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian TIFF header, IFD at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,  // Orientation, SHORT
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        jpeg.insert(contentsOf: segment, at: 2)  // right after SOI
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
    }

    /// A PNG that declares `width` × `height` RGB pixels but holds only a few bytes of data.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> Data {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]  // 8-bit RGB
        let truncatedData = bigEndian(1_000_000) + Array("IDAT".utf8) + [0x78, 0x9C, 0x01, 0x02]
        return Data(signature + chunk("IHDR", header) + truncatedData)
    }

    /// CRC-32 as PNG uses it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}

extension VipsImage {
    /// The samples of the pixel at (x, y).
    func pixel(x: Int, y: Int) throws -> [Int] {
        let (data, width, _, bands) = try pixels()
        let start = (y * width + x) * bands
        return data[start..<(start + bands)].map(Int.init)
    }
}

/// The error a throwing call threw, as a ``VipsError``.
func vipsError(_ body: () throws -> Void) -> VipsError? {
    do {
        try body()
        return nil
    } catch {
        return error as? VipsError
    }
}
