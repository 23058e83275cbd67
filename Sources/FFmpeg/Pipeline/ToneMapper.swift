import CFFmpegShim

/// Tone-maps HDR pictures (PQ or HLG) to SDR: BT.709 primaries, transfer and matrix, 8-bit
/// YUV 4:2:0 in limited range, through libavfilter.
///
/// The operator, as the `ffmpeg` tool would run it: `zscale` reads the source's transfer,
/// matrix, primaries and range and makes linear light with a nominal peak of 100 cd/m²
/// (`npl=100`), converts the primaries to BT.709 in linear light (32-bit float RGB), `tonemap`
/// applies John Hable's filmic curve (`hable`, no desaturation), and `zscale` applies the
/// BT.709 transfer and matrix. See ``description(for:)``.
final class ToneMapper {
    private let description: String
    private let timeBase: AVRational
    private let path: String
    private var graph: FilterGraph?
    private var input: (width: Int32, height: Int32, format: Int32)?
    private let output = Frame()

    /// The filter description for pictures whose values mean `colour`.
    static func description(for colour: PictureColour) -> String {
        func name(_ text: UnsafePointer<CChar>?, or fallback: String) -> String { text.map { String(cString: $0) } ?? fallback }
        let transfer = name(av_color_transfer_name(colour.transfer), or: "smpte2084")
        let matrix = name(av_color_space_name(colour.matrix), or: "bt2020nc")
        let primaries = colour.primaries == AVCOL_PRI_UNSPECIFIED ? "bt2020"
            : name(av_color_primaries_name(colour.primaries), or: "bt2020")
        return "zscale=tin=\(transfer):min=\(matrix):pin=\(primaries):rin=\(colour.fullRange ? "pc" : "tv")"
            + ":t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
            + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
    }

    /// Prepares to tone-map pictures whose values mean `colour` (an HDR transfer), timed in `timeBase`.
    init(colour: PictureColour, timeBase: AVRational, path: String) {
        description = Self.description(for: colour)
        self.timeBase = timeBase
        self.path = path
    }

    /// The tone-mapped `frame`, with its timestamps; a frame this mapper owns and reuses.
    func map(_ frame: Frame) throws(FFmpegError) -> Frame {
        let size = (frame.width, frame.height, frame.pointer.pointee.format)
        if graph == nil || input! != size {
            graph = try FilterGraph(description, width: size.0, height: size.1, format: frame.pixelFormat,
                                    timeBase: timeBase, path: path)
            input = size
        }
        guard try graph!.filter(frame, into: output) else {
            throw FFmpegError(.encodeFailed, operation: "tone-map", path: path,
                              reason: "the tone-mapping filters held a picture back")
        }
        output.pointer.pointee.pkt_duration = frame.pointer.pointee.pkt_duration
        output.pointer.pointee.best_effort_timestamp = frame.pointer.pointee.best_effort_timestamp
        return output
    }
}
