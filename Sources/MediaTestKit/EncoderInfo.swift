import Foundation

/// What an encoder wrote about itself into a stream, found in the file's bytes: an independent
/// check, with no demuxer or decoder between the test and the file.
public enum EncoderInfo {
    /// The text of x265's "info" SEI in the file at `path` (`x265 (build …) … options: cpuid=…`,
    /// its build and the CPU features of the machine that encoded it), or nil when it holds none.
    public static func x265(in path: String) throws -> String? {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let start = bytes.range(of: Data("x265 (build".utf8))?.lowerBound else { return nil }
        // The payload is a NUL-terminated ASCII string.
        return String(decoding: bytes[start...].prefix(4096).prefix { (0x20..<0x7F).contains($0) }, as: UTF8.self)
    }
}
