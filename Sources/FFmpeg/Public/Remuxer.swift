import CFFmpegShim
import Foundation
import MediaInputLimits

/// Copies a file's streams into a new file of the same kind without re-encoding, with other
/// container metadata: how a copied original is rewritten without what a metadata policy removes.
public enum Remuxer {
    /// Writes every stream of `source` that the output container takes into `output`, packets
    /// unchanged, with `metadata` as the container's metadata.
    ///
    /// Each stream keeps its codec parameters, timing (edit lists included), side data (display
    /// rotation, HDR metadata) and its language, name and disposition (``StreamLabels``); other
    /// stream metadata is left out. The container follows `output`'s extension. Written with
    /// `+bitexact`: equal inputs give equal bytes.
    /// - Parameters:
    ///   - source: the input.
    ///   - output: the file to write; replaced if it exists.
    ///   - metadata: the container metadata to write.
    ///   - limits: what the input may be.
    ///   - shouldStop: asked between packets and by blocking reads and writes.
    /// - Returns: descriptions of the streams the container could not take, as
    ///   ``MediaInfo/otherStreams`` words them.
    /// - Throws: ``FFmpegError``: the errors of reading `source` and writing `output`; `stopped`
    ///   (the partial `output` is left for the caller).
    @discardableResult
    public static func remux(
        source: String, output: String, metadata: [String: String], limits: MediaLimits = MediaLimits(),
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(FFmpegError) -> [String] {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: source, limits: limits, stop: stop)
        let muxer = try OutputFile(path: output, format: nil, stop: stop)
        var mapping: [Int32: UnsafeMutablePointer<AVStream>] = [:]
        var left: [String] = []
        for index in 0..<input.streamCount {
            let stream = input.stream(index)
            guard muxer.accepts(stream.pointee.codecpar.pointee.codec_id) else {
                left.append(MediaProbe.describe(stream))
                stream.pointee.discard = AVDISCARD_ALL
                continue
            }
            let copy = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
            try StreamLabels.copy(from: stream, to: copy, path: output)
            try copySideData(from: stream, to: copy, path: output)
            mapping[index] = copy
        }
        try Metadata.set(metadata, in: &muxer.pointer.pointee.metadata, path: output)
        try muxer.writeHeader(options: OutputFile.movFlags(fastStart: false, metadata: metadata))
        let packet = Packet()
        while try input.read(into: packet) {
            try stop.check(path: source)
            guard let target = mapping[packet.streamIndex] else { continue }
            try packet.requireIntact("a packet", path: source)
            try SegmentJoiner.write(packet, from: input.stream(packet.streamIndex).pointee.time_base, to: target,
                                muxer: muxer)
        }
        try muxer.finish()
        return left
    }

    /// Copies the stream's side data (display matrix, mastering display, …).
    private static func copySideData(from source: UnsafeMutablePointer<AVStream>, to target: UnsafeMutablePointer<AVStream>,
                                     path: String) throws(FFmpegError) {
        for number in 0..<Int(source.pointee.nb_side_data) {
            let entry = source.pointee.side_data[number]
            guard let data = av_stream_new_side_data(target, entry.type, entry.size) else {
                throw FFmpegError(.writeFailed, operation: "av_stream_new_side_data", path: path,
                                  code: shim_AVERROR(ENOMEM), reason: "out of memory")
            }
            memcpy(data, entry.data, entry.size)
        }
    }
}
