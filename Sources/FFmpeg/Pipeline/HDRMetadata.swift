import CFFmpegShim
import MediaInputLimits

/// The mastering display and content light level of an HDR video, as its encoder is told them.
struct HDRMetadata {
    /// Chromaticities (x, y) of the mastering display's red, green and blue and of its white
    /// point, and its luminance range in cd/m².
    var mastering: (red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double),
                    maxLuminance: Double, minLuminance: Double)?
    /// The brightest pixel (MaxCLL) and brightest frame average (MaxFALL) in cd/m².
    var light: (maxContent: Int, maxAverage: Int)?

    /// Reads the metadata of the main video of `path`: from the stream (Matroska, MP4 boxes),
    /// else from its first picture (HEVC and AV1 carry it in the bitstream).
    static func read(_ path: String, limits: MediaLimits, stop: StopSignal) throws(FFmpegError) -> HDRMetadata {
        let input = try InputFile(path: path, limits: limits, stop: stop)
        let index = try input.videoStream()
        input.keepOnly([index])
        let stream = input.stream(index)
        var metadata = HDRMetadata()
        metadata.take(mastering: av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nil),
                      light: av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nil))
        guard metadata.mastering == nil || metadata.light == nil else { return metadata }
        let decoder = try StreamDecoder(input: input, streamIndex: index, limits: limits, threads: 1)
        let frame = Frame()
        if try decoder.next(into: frame) {
            metadata.take(mastering: av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)?.pointee.data,
                          light: av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)?.pointee.data)
        }
        return metadata
    }

    /// Fills what is still missing from side data buffers (`AVMasteringDisplayMetadata`,
    /// `AVContentLightMetadata`).
    private mutating func take(mastering: UnsafeMutablePointer<UInt8>?, light: UnsafeMutablePointer<UInt8>?) {
        if self.mastering == nil, let mastering {
            let m = UnsafeRawPointer(mastering).assumingMemoryBound(to: AVMasteringDisplayMetadata.self).pointee
            if m.has_primaries != 0, m.has_luminance != 0 {
                let p = m.display_primaries
                let xy = { (pair: (AVRational, AVRational)) in (av_q2d(pair.0), av_q2d(pair.1)) }
                self.mastering = (xy(p.0), xy(p.1), xy(p.2), xy(m.white_point), av_q2d(m.max_luminance),
                                  av_q2d(m.min_luminance))
            }
        }
        if self.light == nil, let light {
            let l = UnsafeRawPointer(light).assumingMemoryBound(to: AVContentLightMetadata.self).pointee
            self.light = (Int(l.MaxCLL), Int(l.MaxFALL))
        }
    }

    /// x265's `master-display` (chromaticities in 1/50000, luminance in 1/10000 cd/m²) and
    /// `max-cll` parameters.
    var x265Parameters: [String] {
        parameters(mastering: "master-display", light: "max-cll", chromaticity: { "\(Int(($0 * 50000).rounded()))" },
                   luminance: { "\(Int(($0 * 10000).rounded()))" })
    }

    /// SVT-AV1's `mastering-display` (plain chromaticities and cd/m²) and `content-light` parameters.
    var svtParameters: [String] {
        parameters(mastering: "mastering-display", light: "content-light", chromaticity: { "\($0)" },
                   luminance: { "\($0)" })
    }

    /// `<mastering>=G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` and `<light>=maxCLL,maxFALL`, numbers
    /// written by the encoder's conventions.
    private func parameters(mastering key: String, light lightKey: String, chromaticity: (Double) -> String,
                            luminance: (Double) -> String) -> [String] {
        var parameters: [String] = []
        if let m = mastering {
            func xy(_ pair: (Double, Double)) -> String { "(\(chromaticity(pair.0)),\(chromaticity(pair.1)))" }
            parameters.append("\(key)=G\(xy(m.green))B\(xy(m.blue))R\(xy(m.red))WP\(xy(m.white))"
                + "L(\(luminance(m.maxLuminance)),\(luminance(m.minLuminance)))")
        }
        if let light { parameters.append("\(lightKey)=\(light.maxContent),\(light.maxAverage)") }
        return parameters
    }
}
