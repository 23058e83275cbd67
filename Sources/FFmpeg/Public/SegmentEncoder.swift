import CFFmpegShim
import MediaInputLimits

/// Re-encodes one time range of a video into a video-only MP4 segment.
///
/// Segments encoded from consecutive keyframe ranges with the same edit and encoding share their
/// codec parameters, so ``SegmentJoiner`` can concatenate them without re-encoding.
public enum SegmentEncoder {
    /// Encodes the frames of `source` whose presentation time is in [`start`, `end`).
    ///
    /// Seeks to the last keyframe at or before `start` (pass keyframe times from
    /// ``MediaProbe/probe(_:limits:scanKeyframes:shouldStop:)`` to avoid decoding frames that are
    /// then dropped), decodes, applies `edit`, encodes with the first frame a keyframe and
    /// `+bitexact`, and writes `output` as MP4 with `fflags +bitexact` (no creation time, no encoder
    /// tag), timestamps starting at 0. With `encoding.threads == 1` the same input and settings
    /// give byte-identical output.
    ///
    /// An HDR source (PQ or HLG) is tone-mapped to SDR BT.709 8-bit before the edit (``ToneMapper``),
    /// or with ``HDRMode/keep`` encoded 10-bit with its transfer, primaries, matrix, mastering
    /// display and light levels, on the CPU.
    /// - Parameters:
    ///   - source: the input video.
    ///   - start: the first time kept, in seconds on the source's timeline.
    ///   - end: the first time no longer kept; `nil` for the end of the video.
    ///   - edit: what to do to each picture.
    ///   - encoding: codec and settings.
    ///   - output: the MP4 to write; replaced if it exists.
    ///   - limits: what the input may be.
    ///   - shouldStop: asked between frames and by blocking reads and writes.
    ///   - renderer: makes a ``PictureRenderer`` for the segment's plan when the edit changes
    ///     the pictures; `nil` (or a factory returning `nil`) edits them on the CPU.
    /// - Returns: the number of frames written.
    /// - Throws: ``FFmpegError``; `stopped` when `shouldStop` said so (the partial `output` is left
    ///   for the caller to remove), `invalidRequest` when the range holds no frame or the edit does
    ///   not fit the picture.
    @discardableResult
    public static func encode(
        source: String, from start: Double, to end: Double?, edit: VideoEdit = .identity,
        encoding: VideoEncoding = VideoEncoding(), output: String, limits: MediaLimits = MediaLimits(),
        shouldStop: @escaping @Sendable () -> Bool = { false }, renderer: PictureRendererFactory? = nil
    ) throws(FFmpegError) -> Int {
        let stop = StopSignal(shouldStop)
        let input = try InputFile(path: source, limits: limits, stop: stop)
        let videoIndex = try input.videoStream()
        input.keepOnly([videoIndex])
        let decoder = try StreamDecoder(input: input, streamIndex: videoIndex, limits: limits,
                                        threads: encoding.threads)
        let stream = decoder.stream
        let timeBase = stream.pointee.time_base
        let parameters = stream.pointee.codecpar!
        let geometry = try EditGeometry(storedWidth: Int(parameters.pointee.width),
                                        storedHeight: Int(parameters.pointee.height),
                                        displayRotation: Int(shim_stream_rotation(stream)), edit: edit, path: source)
        let sourceColour = PictureColour(parameters.pointee)
        let keepsHDR = sourceColour.isHDR && encoding.hdr == .keep
        let toneMapper = sourceColour.isHDR && !keepsHDR
            ? ToneMapper(colour: sourceColour, timeBase: timeBase, path: source) : nil
        let colour = toneMapper == nil ? sourceColour : .bt709
        var hdrMetadata: HDRMetadata?
        if keepsHDR {
            try requireHDRKept(by: encoding, edit: edit, path: source)
            hdrMetadata = try HDRMetadata.read(source, limits: limits, stop: stop)
        }
        let format = keepsHDR ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
        let editor = try pictureEditor(geometry: geometry, edit: edit, colour: colour, output: format,
                                       stored: (Int(parameters.pointee.width), Int(parameters.pointee.height)),
                                       renderer: keepsHDR ? nil : renderer, path: source)

        let startTime = timeBase.timestamp(start)
        let endTime = end.map { timeBase.timestamp($0) }
        if start > 0 { try decoder.seek(to: startTime) }

        let muxer = try OutputFile(path: output, format: "mp4", stop: stop)
        var rate = stream.pointee.avg_frame_rate
        if !rate.isValid { rate = stream.pointee.r_frame_rate }
        let nominalDuration = rate.isValid ? av_rescale_q(1, av_inv_q(rate), timeBase) : 0
        let encoder = try CodecContext.videoEncoder(
            encoding, width: geometry.width, height: geometry.height, timeBase: timeBase, frameRate: rate,
            aspect: pixelAspect(parameters.pointee.sample_aspect_ratio, quarterTurns: geometry.quarterTurns),
            colour: colour, format: format, hdr: hdrMetadata, globalHeader: muxer.wantsGlobalHeader, path: output)
        let outStream = try muxer.addStream(encoder: encoder)
        try muxer.writeHeader()

        let writer = PacketWriter(encoder: encoder, muxer: muxer, stream: outStream,
                                  nominalDuration: nominalDuration, stop: stop)
        let frame = Frame()
        var firstTime: Int64?
        var lastTime: Int64 = .min
        var written = 0
        let emit = { (edited: EditedPicture) throws(FFmpegError) in
            edited.picture.pointer.pointee.pts = edited.time - firstTime!
            edited.picture.pointer.pointee.pict_type = written == 0 ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
            try writer.encode(edited.picture, duration: edited.duration)
            written += 1
        }
        while try decoder.next(into: frame) {
            try stop.check(path: source)
            let time = frame.time ?? (lastTime == .min ? startTime : lastTime + max(1, nominalDuration))
            lastTime = time
            if time < startTime { continue }
            if let endTime, time >= endTime { break }
            let duration = frame.pointer.pointee.pkt_duration > 0 ? frame.pointer.pointee.pkt_duration : nominalDuration
            if firstTime == nil { firstTime = time }
            try editor.edit(try toneMapper?.map(frame) ?? frame, time: time, duration: duration, emit: emit)
        }
        try editor.flush(emit: emit)
        guard written > 0 else {
            throw FFmpegError(.invalidRequest, operation: "encode", path: source,
                              reason: "no frame between \(start) s and \(end.map { "\($0) s" } ?? "the end"); "
                                  + "choose a range inside the video")
        }
        try writer.finish()
        try muxer.finish()
        return written
    }

    /// The renderer's editor when a factory gives one for an edit that changes the pictures,
    /// else the CPU pipeline; both read and write YUV by `colour`.
    static func pictureEditor(geometry: EditGeometry, edit: VideoEdit, colour: PictureColour,
                              output: AVPixelFormat = AV_PIX_FMT_YUV420P, stored: (width: Int, height: Int),
                              renderer: PictureRendererFactory?, path: String) throws(FFmpegError) -> any PictureEditor {
        let passesThrough = geometry.cropsNothing && geometry.quarterTurns == 0 && !edit.changesColour
            && geometry.width == geometry.crop.width && geometry.height == geometry.crop.height
        let onCPU = { FramePipeline(geometry: geometry, edit: edit, colour: colour, output: output, path: path) }
        guard let renderer, !passesThrough else { return onCPU() }
        let plan = renderPlan(geometry: geometry, edit: edit, colour: colour, stored: stored)
        do {
            guard let made = try renderer(plan) else { return onCPU() }
            return BatchedPictureEditor(renderer: made, plan: plan, colour: colour, path: path)
        } catch {
            throw error as? FFmpegError ?? FFmpegError(.encodeFailed, operation: "render on the GPU", path: path, reason: "\(error)")
        }
    }

    /// What a ``PictureRenderer`` is asked to do to pictures stored as `stored`.
    static func renderPlan(geometry: EditGeometry, edit: VideoEdit, colour: PictureColour,
                           stored: (width: Int, height: Int)) -> PictureRenderPlan {
        PictureRenderPlan(
            sourceWidth: stored.width, sourceHeight: stored.height,
            cropX: geometry.crop.x, cropY: geometry.crop.y, cropWidth: geometry.crop.width, cropHeight: geometry.crop.height,
            quarterTurns: geometry.quarterTurns, width: geometry.width, height: geometry.height,
            exposure: edit.exposure, contrast: edit.contrast, saturation: edit.saturation,
            lumaRed: colour.lumaWeights.red, lumaBlue: colour.lumaWeights.blue, fullRange: colour.fullRange)
    }

    /// Checks that HDR can be kept: a 10-bit encoder that writes the metadata, and no colour edit
    /// (colour edits work on 8-bit pictures).
    private static func requireHDRKept(by encoding: VideoEncoding, edit: VideoEdit, path: String) throws(FFmpegError) {
        guard ["libx265", "libsvtav1"].contains(encoding.codec) else {
            throw FFmpegError(.invalidRequest, operation: "keep HDR", path: path,
                              reason: "HDR is kept only in HEVC (libx265) or AV1 (libsvtav1) output, not \(encoding.codec); "
                                  + "choose one of them or tone-map to SDR")
        }
        guard !edit.changesColour else {
            throw FFmpegError(.invalidRequest, operation: "keep HDR", path: path,
                              reason: "colour edits (exposure, contrast, saturation) work on SDR pictures; "
                                  + "tone-map this video or leave its colours as they are")
        }
    }

    /// The pixel aspect ratio after turning: inverted by an odd number of quarter turns; 0:1
    /// (unknown) stays unknown.
    private static func pixelAspect(_ aspect: AVRational, quarterTurns: Int) -> AVRational {
        guard aspect.isValid else { return AVRational(num: 0, den: 1) }
        return quarterTurns % 2 == 0 ? aspect : av_inv_q(aspect)
    }
}
