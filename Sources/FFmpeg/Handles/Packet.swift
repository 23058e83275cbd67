import CFFmpegShim

/// An owned `AVPacket`, freed with `av_packet_free`.
final class Packet {
    /// The packet; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Makes this packet refer to `other`'s data and fields, dropping what it held.
    func take(_ other: Packet) {
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, other.pointer)
    }

    /// Drops the packet's data and resets its fields.
    func unref() { av_packet_unref(pointer) }

    /// Whether the packet starts a keyframe.
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// Whether the demuxer flagged the packet to be decoded but not shown (it lies outside the
    /// container's edit list).
    var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

    /// Whether the demuxer flagged the packet as damaged (for example cut short by a truncation).
    var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// Throws `corruptMedia` naming `what` (for example "a video packet") and where it lies when
    /// the demuxer flagged the packet as damaged.
    func requireIntact(_ what: String, path: String) throws(FFmpegError) {
        guard isCorrupt else { return }
        throw FFmpegError(.corruptMedia, operation: "av_read_frame", path: path, code: shim_AVERROR_INVALIDDATA(),
                          reason: "\(what) is damaged or cut short at byte \(pointer.pointee.pos)")
    }

    /// The stream the packet belongs to.
    var streamIndex: Int32 { pointer.pointee.stream_index }

    /// The presentation time, or the decoding time when there is none, in the stream's time base.
    var time: Int64? {
        let nopts = shim_AV_NOPTS_VALUE()
        if pointer.pointee.pts != nopts { return pointer.pointee.pts }
        if pointer.pointee.dts != nopts { return pointer.pointee.dts }
        return nil
    }
}
