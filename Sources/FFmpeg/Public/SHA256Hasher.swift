import CFFmpegShim
import Foundation

/// SHA-256 with libavutil's `av_sha`, fed in pieces.
///
/// ``finalize()`` returns the digest and starts a new one. Not thread-safe: use one hasher per
/// thread of work.
public final class SHA256Hasher {
    private let context: OpaquePointer

    /// Creates a hasher for an empty input.
    public init() {
        FFmpeg.initialize()
        guard let context = av_sha_alloc() else { fatalError("av_sha_alloc: out of memory") }
        self.context = context
        restart()
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    private func restart() {
        // av_sha_init fails only for a bit length it does not know; 256 is one it does.
        let code = av_sha_init(context, 256)
        precondition(code == 0, "av_sha_init(256) returned \(code)")
    }

    /// Adds `data` to the input.
    public func update(_ data: Data) {
        data.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { update(bytes: base, count: buffer.count) }
        }
    }

    /// Adds `count` bytes at `bytes` to the input.
    public func update(bytes: UnsafeRawPointer, count: Int) {
        av_sha_update(context, bytes.assumingMemoryBound(to: UInt8.self), count)
    }

    /// The digest of everything added since the start, as 64 lowercase hexadecimal digits; the
    /// hasher then starts over.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        restart()
        return digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// The SHA-256 of `data` in lowercase hexadecimal.
    public static func hex(of data: Data) -> String {
        let hasher = SHA256Hasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The SHA-256 of the file at `path` in lowercase hexadecimal, read in 1 MiB pieces.
    /// - Throws: ``FFmpegError`` `readFailed` when the file cannot be opened or read.
    public static func hex(ofFile path: String) throws(FFmpegError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw readError(path, operation: "open") }
        defer { close(descriptor) }
        let hasher = SHA256Hasher()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, 1 << 20)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw readError(path, operation: "read")
            }
            hasher.update(bytes: buffer, count: count)
        }
        return hasher.finalize()
    }

    private static func readError(_ path: String, operation: String) -> FFmpegError {
        let code = errno
        return FFmpegError(.readFailed, operation: operation, path: path, code: shim_AVERROR(code),
                           reason: String(cString: strerror(code)))
    }
}
