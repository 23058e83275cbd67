/// The first bytes that tell a PNG, a WebP and a GIF file, as libvips' own loaders test them
/// (a JPEG's are ``JPEGSignature``'s).
enum ImageSignatures {
    /// PNG's eight-byte signature.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with PNG's signature.
    static func isPNG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: png)
    }

    /// Whether `bytes` start as a WebP does: "RIFF", a four-byte size, then "WEBP".
    static func isWebP(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: "RIFF".utf8) && bytes.dropFirst(8).starts(with: "WEBP".utf8)
    }

    /// Whether `bytes` start as a GIF does ("GIF8": GIF87a and GIF89a).
    static func isGIF(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: "GIF8".utf8)
    }
}
