import FFmpeg

/// An estimate of the memory one segment chunk needs while it encodes: its decoder's frames and
/// its encoder's, which x264's lookahead dominates.
///
/// x264 (one thread, as segment encoders run) holds input pictures for its lookahead and B-frame
/// decision, `max(bframes, lookahead) + bframes + 3` of them, each a padded picture plus four
/// half-size planes for the lookahead's motion search: about 2.9 bytes a pixel. It holds
/// `refs + 2` reconstructed pictures, each with three half-pel planes beside the picture: about
/// 5 bytes a pixel. The decoder holds about 6 YUV 4:2:0 pictures of the source (1.5 bytes a
/// pixel). A fixed 8 MiB covers x264's per-encoder tables and the libraries' own buffers.
///
/// Checked on 1080p `veryfast` (lookahead 10, 3 B-frames, 1 reference): the formula gives
/// 147 MiB; a second chunk running beside the first raised `mediajob compress`'s peak RSS by
/// 149 MiB with x264's pictures on transparent huge pages, as they are (`/usr/bin/time -f %M`,
/// 16 s 1080p clip, one chunk at once against two), and by 138 MiB with them kept off (10 s
/// clip, 259 against 397 MiB).
/// Other encoders than x264 are counted as x264 at the same preset, doubled: a guess, not a
/// measurement.
struct EncoderFootprint: Equatable {
    /// What one x264 preset keeps in flight: frames of lookahead, consecutive B-frames, and
    /// reference frames (x264's own preset table).
    struct Preset: Equatable {
        var lookahead: Int
        var bframes: Int
        var references: Int
    }

    /// x264's presets; a preset not named here counts as `medium`, x264's default.
    static let presets: [String: Preset] = [
        "ultrafast": Preset(lookahead: 0, bframes: 0, references: 1),
        "superfast": Preset(lookahead: 0, bframes: 3, references: 1),
        "veryfast": Preset(lookahead: 10, bframes: 3, references: 1),
        "faster": Preset(lookahead: 20, bframes: 3, references: 2),
        "fast": Preset(lookahead: 30, bframes: 3, references: 2),
        "medium": Preset(lookahead: 40, bframes: 3, references: 3),
        "slow": Preset(lookahead: 50, bframes: 3, references: 5),
        "slower": Preset(lookahead: 60, bframes: 3, references: 8),
        "veryslow": Preset(lookahead: 60, bframes: 8, references: 16),
    ]

    /// Bytes per pixel of one input picture x264 holds (picture, padding, lookahead planes).
    static let inputPictureBytesPerPixel = 2.9
    /// Bytes per pixel of one reconstructed picture x264 holds (picture and half-pel planes).
    static let referencePictureBytesPerPixel = 5.0
    /// Source pictures the decoder holds, at 1.5 bytes a pixel.
    static let decodedPictures = 6.0
    /// Per-encoder tables and buffers that do not scale with the picture.
    static let fixedBytes = 8.0 * 1024 * 1024

    /// Input pictures the encoder holds.
    let inputPictures: Int
    /// Reconstructed pictures the encoder holds.
    let referencePictures: Int
    /// The estimate, in bytes.
    let bytes: UInt64

    /// The footprint of encoding `width` × `height` pictures decoded from a source as large
    /// (the output is never larger than the source) with `encoding`.
    init(encoding: VideoEncoding, width: Int, height: Int) {
        let preset = Self.presets[encoding.preset] ?? Self.presets["medium"]!
        inputPictures = max(preset.bframes, preset.lookahead) + preset.bframes + 3
        referencePictures = preset.references + 2
        let pixels = Double(max(0, width) * max(0, height))
        let encoder = pixels * (Double(inputPictures) * Self.inputPictureBytesPerPixel
            + Double(referencePictures) * Self.referencePictureBytesPerPixel)
        let decoder = pixels * 1.5 * Self.decodedPictures
        let codecFactor = encoding.codec == "libx264" ? 1.0 : 2.0
        bytes = UInt64((encoder * codecFactor + decoder + Self.fixedBytes).rounded())
    }
}
