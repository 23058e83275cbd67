import Foundation

/// How a file is known to be a JPEG: it starts with the start-of-image marker, FF D8. These are
/// the two bytes libvips' `jpegload` tests (`vips__isjpeg_source`), and no loader libvips asks
/// before it would take such a file, so a file that starts so is loaded as a JPEG.
public enum JPEGSignature {
    /// The start-of-image marker that every JPEG begins with.
    static let startOfImage: [UInt8] = [0xFF, 0xD8]

    /// Whether `bytes` start like a JPEG.
    public static func matches(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: startOfImage)
    }

    /// Whether the file at `path` starts like a JPEG, reading its first two bytes only; `false`
    /// when it cannot be read.
    public static func matchesFile(at path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var start: [UInt8] = [0, 0]
        return start.withUnsafeMutableBytes { read(fd, $0.baseAddress, 2) } == 2 && matches(start)
    }
}
