/// A fixed-size byte buffer that streams entry contents in bounded memory; freed when released.
final class ChunkBuffer {
    /// The size of the chunks that are read, written and checked for a stop: 1 MiB.
    static let defaultSize = 1 << 20

    /// The buffer's bytes.
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int = ChunkBuffer.defaultSize) {
        bytes = .allocate(byteCount: size, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }
}
